import { useCallback, useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { ADMIN_MESSAGES, formatSettingValue, validateSettingDraft, type AdminConfigEntry } from '@aabify/shared';
import { adminApi } from '../api/admin';
import { isApiRequestError } from '../api/client';
import { Loading } from '../components/Loading';
import { formatDateTime } from '../lib/format';
import { toast } from '../stores/toasts';

/** A draft is 'modified' when it differs from the current value (spec §4 "Settings draft"). */
export function isModified(entry: AdminConfigEntry, draft: string | undefined): boolean {
  if (draft === undefined) return false;
  if (entry.isSecret) return draft !== '';
  return draft !== (entry.value === null ? '' : String(entry.value));
}

function SettingRow({ entry, onSaved }: { entry: AdminConfigEntry; onSaved(e: AdminConfigEntry): void }) {
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const shown = draft ?? (entry.isSecret || entry.value === null ? '' : String(entry.value));
  const modified = isModified(entry, draft);
  const id = `setting-${entry.key.replace(/\./g, '-')}`;

  const save = async () => {
    const problem = validateSettingDraft(entry, shown);
    if (problem) {
      setError(problem);
      return;
    }
    setSaving(true);
    try {
      const value = entry.kind === 'number' ? Number(shown.trim()) : shown.trim();
      const r = await adminApi.setConfig(entry.key, value);
      toast.success(r.message, { admin: true });
      setDraft(undefined);
      setError(null);
      onSaved(r.config);
    } catch (e) {
      const message = isApiRequestError(e) && e.serverMessage ? e.serverMessage : ADMIN_MESSAGES.configSaveFailed;
      setError(message);
      toast.error(message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card className="mb-3" data-testid={id}>
      <Card.Body>
        <div className="d-flex flex-wrap justify-content-between gap-2">
          <div>
            <code className="fw-semibold">{entry.key}</code>{' '}
            {modified && <Badge bg="warning" text="dark" data-testid={`${id}-modified`}>Modificado</Badge>}
            <div className="text-body-secondary small">{entry.description}</div>
          </div>
          <div className="small text-end">
            <div>
              Valor atual: <strong data-testid={`${id}-current`}>{formatSettingValue(entry.key, entry.value)}</strong>
            </div>
            <div className="text-body-secondary">
              {entry.updatedAt ? `Atualizado em ${formatDateTime(entry.updatedAt)}` : entry.source === 'default' ? 'Valor padrão' : 'Não configurado'}
            </div>
          </div>
        </div>
        <Form
          className="row g-2 align-items-start mt-2"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
          noValidate
        >
          <div className="col-md-7">
            <Form.Label htmlFor={id + '-input'} className="visually-hidden">Novo valor de {entry.key}</Form.Label>
            {entry.kind === 'enum' && entry.options ? (
              <Form.Select id={id + '-input'} value={shown} onChange={(e) => { setDraft(e.target.value); setError(null); }} isInvalid={Boolean(error)}>
                {entry.options.map((o) => <option key={o} value={o}>{o}</option>)}
              </Form.Select>
            ) : (
              <Form.Control
                id={id + '-input'}
                type={entry.isSecret ? 'password' : 'text'}
                inputMode={entry.kind === 'number' ? 'numeric' : undefined}
                placeholder={entry.isSecret ? (entry.isSet ? `${entry.value ?? ''} (digite para substituir)` : 'Não configurado') : 'Novo valor'}
                value={shown}
                autoComplete="off"
                onChange={(e) => { setDraft(e.target.value); setError(null); }}
                isInvalid={Boolean(error)}
              />
            )}
            <Form.Control.Feedback type="invalid" role="alert" data-testid={`${id}-error`}>{error}</Form.Control.Feedback>
          </div>
          <div className="col-md-5 d-flex gap-2">
            <Button type="submit" disabled={!modified || saving} data-testid={`${id}-save`}>
              {saving && <Spinner size="sm" className="me-1" />}Salvar
            </Button>
            <Button variant="outline-secondary" disabled={!modified || saving} onClick={() => { setDraft(undefined); setError(null); }}>
              Cancelar
            </Button>
          </div>
        </Form>
        {(entry.help || entry.recommended || entry.hint) && (
          <div className="small mt-2">
            {entry.help && <div className="text-body-secondary">{entry.help}</div>}
            {entry.recommended && <div>Recomendado: <strong>{entry.recommended}</strong></div>}
            {entry.hint && <Alert variant="info" className="py-1 px-2 mt-2 mb-0 small text-break" data-testid="webhook-hint">{entry.hint}</Alert>}
          </div>
        )}
      </Card.Body>
    </Card>
  );
}

/** Spec §2.10: one card per setting with its own draft. */
export default function SettingsPage() {
  const [configs, setConfigs] = useState<AdminConfigEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setConfigs((await adminApi.config()).configs);
      setError(null);
    } catch {
      setError(ADMIN_MESSAGES.configLoadFailed);
      toast.error(ADMIN_MESSAGES.configLoadFailed);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <>
      <h1 className="h3 mb-3">Configurações</h1>
      {error && (
        <Alert variant="danger">
          {error} <Button size="sm" variant="outline-danger" onClick={() => void load()}>Tentar Novamente</Button>
        </Alert>
      )}
      {!configs && !error && <Loading />}
      {configs?.map((c) => (
        <SettingRow key={c.key} entry={c} onSaved={(next) => setConfigs((list) => list?.map((e) => (e.key === next.key ? next : e)) ?? null)} />
      ))}
    </>
  );
}
