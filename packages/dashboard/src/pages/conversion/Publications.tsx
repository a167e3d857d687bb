/**
 * The conversion page's 'Google Play' card (docs/play.md): 'Publicar no Google Play' opens the
 * release form (track — internal, alpha, beta, production or a closed track's name —, status,
 * rollout %, release name, notes per language, pt-BR first), and the publication history lists
 * every publication of this conversion (who/when, track, versionCode, status, Play's answer).
 * A publication in progress is followed live (`publication-update` on the page's socket), and its
 * state is read again every few seconds as a fallback while it runs.
 */
import { useCallback, useEffect, useState } from 'react';
import { FieldArray, Form as FormikForm, Formik } from 'formik';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router-dom';
import {
  PLAY_PUBLISH_BLOCKERS,
  PLAY_RELEASE_STATUS_LABELS,
  PLAY_STANDARD_TRACKS,
  PLAY_TRACK_LABELS,
  PUBLICATION_STATUS_LABELS,
  PUBLICATION_STEP_LABELS,
  playReleaseSchema,
  type ApiPublication,
  type PlayCheck,
  type PlayReleaseRequest,
  type PublicationStep,
} from '@aabify/shared';
import { isApiRequestError } from '../../api/client';
import { playApi } from '../../api/play';
import { Icon } from '../../components/Icon';
import { formatDateTime } from '../../lib/format';
import { toast } from '../../stores/toasts';
import { onPublicationUpdate } from '../../live/publicationEvents';
import { SubmitButton } from '../../components/SubmitButton';

interface FormValues {
  trackChoice: string;
  customTrack: string;
  releaseStatus: 'draft' | 'completed' | 'inProgress';
  rolloutPercent: string;
  releaseName: string;
  notes: Array<{ language: string; text: string }>;
}

const INITIAL: FormValues = { trackChoice: 'internal', customTrack: '', releaseStatus: 'draft', rolloutPercent: '', releaseName: '', notes: [{ language: 'pt-BR', text: '' }] };

function requestOf(v: FormValues): PlayReleaseRequest {
  const notes = v.notes.filter((n) => n.text.trim()).map((n) => ({ language: n.language.trim(), text: n.text.trim() }));
  return {
    track: v.trackChoice === 'custom' ? v.customTrack.trim() : v.trackChoice,
    releaseStatus: v.releaseStatus,
    ...(v.releaseStatus === 'inProgress' && v.rolloutPercent !== '' ? { rolloutPercent: Number(v.rolloutPercent) } : {}),
    ...(v.releaseName.trim() ? { releaseName: v.releaseName.trim() } : {}),
    ...(notes.length ? { releaseNotes: notes } : {}),
  };
}

/** The shared schema's first message per form field. */
function validateForm(v: FormValues): Record<string, string> {
  try {
    playReleaseSchema.validateSync(requestOf(v), { abortEarly: false });
    return {};
  } catch (e) {
    const errors: Record<string, string> = {};
    for (const inner of (e as { inner?: Array<{ path?: string; message: string }> }).inner ?? []) {
      const field = inner.path === 'track' ? (v.trackChoice === 'custom' ? 'customTrack' : 'trackChoice') : inner.path?.startsWith('releaseNotes') ? 'notes' : (inner.path ?? '_');
      errors[field] ??= inner.message;
    }
    return errors;
  }
}

function statusVariant(s: ApiPublication['status']): string {
  return s === 'completed' ? 'success' : s === 'failed' ? 'danger' : 'info';
}

function PublishModal({ conversionId, show, onHide, onCreated }: { conversionId: string; show: boolean; onHide(): void; onCreated(p: ApiPublication): void }) {
  const submit = async (values: FormValues) => {
    try {
      const res = await playApi.publish(conversionId, requestOf(values));
      toast.success(res.message);
      onCreated(res.publication);
      onHide();
    } catch (e) {
      toast.error(isApiRequestError(e) ? (e.serverMessage ?? e.message) : 'Erro de Conexão');
    }
  };
  return (
    <Modal show={show} onHide={onHide} centered data-testid="publish-modal">
      <Formik<FormValues> initialValues={INITIAL} validate={validateForm} onSubmit={submit}>
        {({ values, errors, handleChange, isSubmitting }) => (
          <FormikForm noValidate>
            <Modal.Header closeButton>
              <Modal.Title as="h2" className="h5">
                Publicar no Google Play
              </Modal.Title>
            </Modal.Header>
            <Modal.Body>
              <Form.Group className="mb-3" controlId="publish-track">
                <Form.Label>Faixa</Form.Label>
                <Form.Select name="trackChoice" value={values.trackChoice} onChange={handleChange} isInvalid={Boolean(errors.trackChoice)}>
                  {PLAY_STANDARD_TRACKS.map((t) => (
                    <option key={t} value={t}>
                      {PLAY_TRACK_LABELS[t]}
                    </option>
                  ))}
                  <option value="custom">Outra faixa de teste fechado…</option>
                </Form.Select>
              </Form.Group>
              {values.trackChoice === 'custom' && (
                <Form.Group className="mb-3" controlId="publish-custom-track">
                  <Form.Label>Nome da faixa</Form.Label>
                  <Form.Control name="customTrack" value={values.customTrack} onChange={handleChange} isInvalid={Boolean(errors.customTrack)} />
                  <Form.Control.Feedback type="invalid">{errors.customTrack}</Form.Control.Feedback>
                </Form.Group>
              )}
              <Form.Group className="mb-3" controlId="publish-status">
                <Form.Label>Status da versão</Form.Label>
                <Form.Select name="releaseStatus" value={values.releaseStatus} onChange={handleChange}>
                  <option value="draft">{PLAY_RELEASE_STATUS_LABELS.draft}</option>
                  <option value="completed">{PLAY_RELEASE_STATUS_LABELS.completed}</option>
                  <option value="inProgress">{PLAY_RELEASE_STATUS_LABELS.inProgress}</option>
                </Form.Select>
                <Form.Text>Rascunho: a versão fica no Play Console para você revisar e lançar.</Form.Text>
              </Form.Group>
              {values.releaseStatus === 'inProgress' && (
                <Form.Group className="mb-3" controlId="publish-rollout">
                  <Form.Label>Porcentagem de usuários</Form.Label>
                  <Form.Control name="rolloutPercent" type="number" min={0.01} max={99.99} step="any" value={values.rolloutPercent} onChange={handleChange} isInvalid={Boolean(errors.rolloutPercent)} />
                  <Form.Control.Feedback type="invalid">{errors.rolloutPercent}</Form.Control.Feedback>
                </Form.Group>
              )}
              <Form.Group className="mb-3" controlId="publish-name">
                <Form.Label>Nome da versão (opcional)</Form.Label>
                <Form.Control name="releaseName" value={values.releaseName} onChange={handleChange} isInvalid={Boolean(errors.releaseName)} />
                <Form.Control.Feedback type="invalid">{errors.releaseName}</Form.Control.Feedback>
              </Form.Group>
              <FieldArray name="notes">
                {(helpers) => (
                  <div>
                    <div className="form-label">Notas da versão (“O que há de novo”)</div>
                    {values.notes.map((n, i) => (
                      <div className="d-flex gap-2 mb-2" key={i}>
                        <Form.Control aria-label="Idioma" name={`notes.${i}.language`} value={n.language} onChange={handleChange} style={{ maxWidth: 90 }} />
                        <Form.Control as="textarea" rows={2} aria-label={`Notas em ${n.language}`} name={`notes.${i}.text`} value={n.text} onChange={handleChange} data-testid={`publish-notes-${i}`} />
                      </div>
                    ))}
                    {errors.notes && <div className="text-danger small mb-2">{String(errors.notes)}</div>}
                    <Button variant="link" size="sm" className="px-0" onClick={() => helpers.push({ language: 'en-US', text: '' })}>
                      Adicionar idioma
                    </Button>
                  </div>
                )}
              </FieldArray>
            </Modal.Body>
            <Modal.Footer>
              <Button variant="outline-secondary" onClick={onHide}>
                Cancelar
              </Button>
              <SubmitButton busy={isSubmitting} data-testid="publish-submit">
                Publicar
              </SubmitButton>
            </Modal.Footer>
          </FormikForm>
        )}
      </Formik>
    </Modal>
  );
}

/** What keeps publishing from working, known before the form: the account's Play key, the AAB's signature, the checklist's blockers. */
function usePublishBlockers(canPublish: boolean, signed: boolean | undefined, checklist: readonly PlayCheck[] | undefined): { ready: boolean; reasons: Array<'noKey' | 'unsigned' | 'checklist'>; checklistBlockers: number } {
  const [hasKey, setHasKey] = useState<boolean | null>(null);
  useEffect(() => {
    if (!canPublish) return;
    let live = true;
    playApi.credentials().then(
      (c) => live && setHasKey(c !== null),
      () => live && setHasKey(true),
    );
    return () => {
      live = false;
    };
  }, [canPublish]);
  const checklistBlockers = (checklist ?? []).filter((c) => c.status === 'blocker').length;
  const reasons: Array<'noKey' | 'unsigned' | 'checklist'> = [];
  if (hasKey === false) reasons.push('noKey');
  if (signed === false) reasons.push('unsigned');
  if (checklistBlockers > 0) reasons.push('checklist');
  return { ready: hasKey !== null, reasons, checklistBlockers };
}

function BlockerReasons({ reasons, checklistBlockers }: { reasons: ReadonlyArray<'noKey' | 'unsigned' | 'checklist'>; checklistBlockers: number }) {
  return (
    <div className="small mb-3" data-testid="publish-blockers">
      <div className="fw-semibold">{PLAY_PUBLISH_BLOCKERS.title}</div>
      <ul className="mb-0 ps-3">
        {reasons.map((r) => (
          <li key={r} data-testid={`publish-blocker-${r}`}>
            {r === 'checklist' ? (
              PLAY_PUBLISH_BLOCKERS.checklist(checklistBlockers)
            ) : (
              <>
                {PLAY_PUBLISH_BLOCKERS[r].before} <Link to={PLAY_PUBLISH_BLOCKERS[r].path}>{PLAY_PUBLISH_BLOCKERS[r].link}</Link> {PLAY_PUBLISH_BLOCKERS[r].after}
              </>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function Publications({
  conversionId,
  canPublish,
  signed,
  checklist,
  openOnLoad,
}: {
  conversionId: string;
  canPublish: boolean;
  signed?: boolean;
  checklist?: readonly PlayCheck[];
  openOnLoad?: boolean;
}) {
  const [items, setItems] = useState<ApiPublication[] | null>(null);
  const blockers = usePublishBlockers(canPublish, signed, checklist);
  // Without a key nothing can be sent; an unsigned AAB or a checklist blocker is refused by Play
  // itself (the customer may still try, e.g. after fixing it in the Play Console), so the button
  // stays usable but secondary, with the reasons beside it.
  const blocked = blockers.reasons.length > 0;
  const impossible = blockers.reasons.includes('noKey');
  // Null until the customer opens or closes the form: 'Publicar' from the history opens it once
  // nothing is missing; otherwise the reasons show instead.
  const [opened, setShow] = useState<boolean | null>(null);
  const show = opened ?? Boolean(openOnLoad && canPublish && blockers.ready && !blocked);
  const reload = useCallback(() => {
    playApi.publications(conversionId).then(
      (r) => setItems(r.publications),
      () => setItems((prev) => prev ?? []),
    );
  }, [conversionId]);
  useEffect(reload, [reload]);
  useEffect(
    () =>
      onPublicationUpdate(({ publication }) => {
        if (publication.conversionId !== conversionId) return;
        setItems((prev) => {
          const list = prev ?? [];
          return list.some((p) => p.id === publication.id) ? list.map((p) => (p.id === publication.id ? publication : p)) : [publication, ...list];
        });
      }),
    [conversionId],
  );
  const active = items?.some((p) => p.status === 'queued' || p.status === 'processing') ?? false;
  useEffect(() => {
    if (!active) return;
    // Only a fallback: the socket's updates arrive as they happen.
    const timer = setInterval(reload, 5000);
    return () => clearInterval(timer);
  }, [active, reload]);

  return (
    <Card className="mb-3" data-testid="publications">
      <Card.Header className="d-flex flex-wrap justify-content-between align-items-center gap-2">
        <h2 className="h6 mb-0">
          <Icon name="google-play" className="me-2" />
          Google Play
        </h2>
        {canPublish && (
          <Button size="sm" variant={blocked ? 'outline-secondary' : 'primary'} disabled={impossible || !blockers.ready} onClick={() => setShow(true)} data-testid="publish-open" aria-describedby={blocked ? 'publish-blockers' : undefined}>
            Publicar no Google Play
          </Button>
        )}
      </Card.Header>
      <Card.Body>
        {/* Once the account's key is known: the list appears whole, never one reason and then another. */}
        {canPublish && blockers.ready && blocked && (
          <div id="publish-blockers">
            <BlockerReasons reasons={blockers.reasons} checklistBlockers={blockers.checklistBlockers} />
          </div>
        )}
        {canPublish && !blocked && (
          <p className="small text-body-secondary">
            Publica este AAB numa faixa do Google Play com a conta de serviço cadastrada em <Link to="/account/google-play">Conta › Google Play</Link>.
          </p>
        )}
        {items === null && <Spinner size="sm" />}
        {items?.length === 0 && <p className="mb-0 text-body-secondary" data-testid="publications-empty">Nenhuma publicação desta conversão.</p>}
        {items && items.length > 0 && (
          <Table responsive size="sm" className="mb-0 align-middle" data-testid="publications-table">
            <caption className="visually-hidden">Histórico de publicações</caption>
            <thead>
              <tr>
                <th>Quando</th>
                <th>Faixa</th>
                <th>Versão</th>
                <th>Situação</th>
              </tr>
            </thead>
            <tbody>
              {items.map((p) => (
                <tr key={p.id} data-testid="publication-row" data-status={p.status}>
                  <td>{formatDateTime(p.createdAt)}</td>
                  <td>
                    {PLAY_TRACK_LABELS[p.track] ?? p.track} <span className="text-body-secondary small">({PLAY_RELEASE_STATUS_LABELS[p.releaseStatus]}{p.rolloutPercent !== null ? ` ${p.rolloutPercent}%` : ''})</span>
                  </td>
                  <td data-testid="publication-version-code">{p.versionCode ?? '—'}</td>
                  <td>
                    <Badge bg={statusVariant(p.status)}>{PUBLICATION_STATUS_LABELS[p.status]}</Badge>
                    {(p.status === 'processing' || p.status === 'queued') && p.step && (
                      <span className="small text-body-secondary ms-2">
                        {PUBLICATION_STEP_LABELS[p.step as PublicationStep] ?? p.step} ({p.progress}%)
                      </span>
                    )}
                    {p.error && (
                      <Alert variant="danger" className="small py-1 px-2 mt-1 mb-0" data-testid="publication-error">
                        {p.error}
                      </Alert>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card.Body>
      {canPublish && <PublishModal conversionId={conversionId} show={show} onHide={() => setShow(false)} onCreated={(p) => setItems((prev) => [p, ...(prev ?? [])])} />}
    </Card>
  );
}
