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
import { PageHeader } from '../components/PageHeader';
import { SkeletonRows } from '../components/Skeleton';
import { formatDateTime } from '../lib/format';
import { toast } from '../stores/toasts';
import { usePaymentsStatus } from '../stores/paymentsStatus';
import { PaymentProviderNotice } from './PaymentsStatus';

/** A draft is 'modified' when it differs from the current value. */
export function isModified(entry: AdminConfigEntry, draft: string | undefined): boolean {
  if (draft === undefined) return false;
  if (entry.isSecret) return draft !== '';
  return draft !== (entry.value === null ? '' : String(entry.value));
}

/** A yes/no setting: a switch that saves at once. */
function SwitchRow({ entry, onSaved }: { entry: AdminConfigEntry; onSaved(e: AdminConfigEntry): void }) {
  const [saving, setSaving] = useState(false);
  const id = `setting-${entry.key.replace(/\./g, '-')}`;
  const toggle = async (value: boolean) => {
    setSaving(true);
    try {
      const r = await adminApi.setConfig(entry.key, value);
      toast.success(r.message, { admin: true });
      onSaved(r.config);
    } catch (e) {
      toast.error(isApiRequestError(e) && e.serverMessage ? e.serverMessage : ADMIN_MESSAGES.configSaveFailed);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Card className="mb-3" data-testid={id}>
      <Card.Body>
        <Form.Check
          type="switch"
          id={`${id}-input`}
          checked={entry.value === true}
          disabled={saving}
          onChange={(e) => void toggle(e.currentTarget.checked)}
          label={<span className="fw-semibold">{entry.title}</span>}
        />
        <div className="text-body-secondary small">{entry.description}</div>
        {entry.help && <div className="small text-body-secondary mt-2">{entry.help}</div>}
        {entry.recommended && <div className="small">Recomendado: <strong>{entry.recommended}</strong></div>}
      </Card.Body>
    </Card>
  );
}

function SettingRow({ entry, onSaved }: { entry: AdminConfigEntry; onSaved(e: AdminConfigEntry): void }) {
  if (entry.kind === 'boolean') return <SwitchRow entry={entry} onSaved={onSaved} />;
  return <TextSettingRow entry={entry} onSaved={onSaved} />;
}

function TextSettingRow({ entry, onSaved }: { entry: AdminConfigEntry; onSaved(e: AdminConfigEntry): void }) {
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
      const value = entry.kind === 'number' ? Number(shown.trim().replace(',', '.')) : shown.trim();
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
          <div className="min-w-0">
            <h3 className="h6 mb-0">
              {entry.title}{' '}
              {modified && <Badge bg="warning" text="dark" data-testid={`${id}-modified`}>Modificado</Badge>}
            </h3>
            <div className="text-body-secondary small">{entry.description}</div>
          </div>
          <div className="small text-md-end">
            <div>
              Valor atual: <strong data-testid={`${id}-current`}>{formatSettingValue(entry.key, entry.value)}</strong>
            </div>
            <div className="text-body-secondary">
              {entry.updatedAt ? `Atualizado em ${formatDateTime(entry.updatedAt)}` : entry.source === 'default' ? 'Valor padrão' : 'Não configurado'}
            </div>
          </div>
        </div>
        {entry.problem && (
          <Alert variant="danger" className="py-1 px-2 mt-2 mb-0 small" data-testid={`${id}-problem`}>
            {entry.problem}
          </Alert>
        )}
        <Form
          className="row g-2 align-items-start mt-2"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
          noValidate
        >
          <div className="col-md-7">
            <Form.Label htmlFor={id + '-input'} className="visually-hidden">Novo valor: {entry.title}</Form.Label>
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
          <div className="col-md-5 d-flex flex-wrap gap-2">
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
            {entry.hint && <Alert variant="info" className="py-1 px-2 mt-2 mb-0 small text-break-word" data-testid="webhook-hint">{entry.hint}</Alert>}
          </div>
        )}
      </Card.Body>
    </Card>
  );
}

const GROUP_ORDER = ['Conversões', 'Uploads', 'Pagamentos', 'Fiscal', 'Segurança', 'Sistema', 'Suporte e privacidade'];

/** Settings by topic, in the screen's order (an unknown topic goes last). */
export function groupsOf(configs: readonly AdminConfigEntry[]): Array<[string, AdminConfigEntry[]]> {
  const byGroup = new Map<string, AdminConfigEntry[]>();
  for (const c of configs) byGroup.set(c.group, [...(byGroup.get(c.group) ?? []), c]);
  const rank = (g: string) => (GROUP_ORDER.includes(g) ? GROUP_ORDER.indexOf(g) : GROUP_ORDER.length);
  return [...byGroup.entries()].sort((a, b) => rank(a[0]) - rank(b[0]));
}

/** Configurações (docs/admin.md): one card per setting with its own draft, grouped by topic, titled for an admin. */
export default function SettingsPage() {
  const [configs, setConfigs] = useState<AdminConfigEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const setPayments = usePaymentsStatus((s) => s.set);
  const refreshPayments = usePaymentsStatus((s) => s.refresh);
  const load = useCallback(
    () =>
      adminApi.config().then(
        (body) => {
          setConfigs(body.configs);
          setPayments(body.payments);
          setError(null);
        },
        () => {
          setError(ADMIN_MESSAGES.configLoadFailed);
          toast.error(ADMIN_MESSAGES.configLoadFailed);
        },
      ),
    [setPayments],
  );
  useEffect(() => {
    void load();
  }, [load]);
  const saved = (next: AdminConfigEntry) => {
    setConfigs((list) => list?.map((e) => (e.key === next.key ? next : e)) ?? null);
    // A payment key can end (or start) the unavailable state: the banner follows at once.
    if (next.key.startsWith('payments.')) void refreshPayments();
  };
  return (
    <>
      <PageHeader title="Configurações" subtitle="Ajustes do serviço, por assunto" />
      {error && (
        <Alert variant="danger">
          {error} <Button size="sm" variant="outline-danger" onClick={() => void load()}>Tentar Novamente</Button>
        </Alert>
      )}
      {!configs && !error && <SkeletonRows rows={6} />}
      {configs &&
        groupsOf(configs).map(([group, entries]) => (
          <section key={group} className="mb-4" aria-labelledby={`settings-${group}`}>
            <h2 className="h5 mb-3" id={`settings-${group}`}>
              {group}
            </h2>
            {group === 'Pagamentos' && <PaymentProviderNotice />}
            {entries.map((c) => (
              <SettingRow key={c.key} entry={c} onSaved={saved} />
            ))}
          </section>
        ))}
    </>
  );
}
