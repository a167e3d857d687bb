/**
 * /account/data — 'Meus dados': the account's data rights. "Exportar meus dados" (a zip of all
 * the account's data, pages/account/DataExportCard.tsx); "Excluir minha conta" with the
 * password (and the two-factor code when the account uses it): conversions, files, keys, tokens
 * and sessions go at once; the minimal record of purchases stays apart, as the page says.
 */
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { Link, useNavigate } from 'react-router-dom';
import { PRIVACY_MESSAGES } from '@aabify/shared';
import { api, isApiRequestError } from '../api/client';
import { PageHeader } from '../components/PageHeader';
import { useSession } from '../stores/session';
import { signOutEverywhere } from '../stores/signOut';
import { toast } from '../stores/toasts';
import { DataExportCard } from './account/DataExportCard';

export default function MyDataPage() {
  const user = useSession((s) => s.user);
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const twoFactor = user?.twoFactorEnabled === true;

  const remove = async () => {
    setBusy(true);
    setErrors({});
    try {
      const answer = await api.delete<{ message: string }>('/account', { body: { password, ...(twoFactor ? { code } : {}) }, quiet: true });
      signOutEverywhere();
      toast.success(answer.message);
      navigate('/login', { replace: true });
    } catch (e) {
      if (isApiRequestError(e)) setErrors(e.fields ?? { password: e.serverMessage ?? 'Não foi possível excluir a conta.' });
      setBusy(false);
    }
  };

  return (
    <>
      <PageHeader title="Meus dados" subtitle="O que guardamos sobre você, como levar uma cópia e como apagar a sua conta." />
      <Card className="mb-3">
        <Card.Body>
          <p className="mb-0">
            A <Link to="/privacidade">Política de Privacidade</Link> lista cada dado pessoal que guardamos, por que e por quanto tempo.
          </p>
        </Card.Body>
      </Card>
      <DataExportCard />
      <Card border="danger" data-testid="delete-account">
        <Card.Header className="text-danger">Excluir minha conta</Card.Header>
        <Card.Body>
          <p>Suas conversões, arquivos, chave de upload, chave do Google Play, tokens de API e sessões serão apagados na hora. Esta ação não pode ser desfeita.</p>
          <Alert variant="secondary" className="small" data-testid="fiscal-record-note">
            {PRIVACY_MESSAGES.fiscalRecordKept}
          </Alert>
          <Form
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void remove();
            }}
          >
            <Form.Group className="mb-3" controlId="delete-password">
              <Form.Label>Sua senha</Form.Label>
              <Form.Control type="password" autoComplete="current-password" value={password} isInvalid={Boolean(errors.password)} onChange={(e) => setPassword(e.currentTarget.value)} />
              <Form.Control.Feedback type="invalid" role="alert">
                {errors.password}
              </Form.Control.Feedback>
            </Form.Group>
            {twoFactor && (
              <Form.Group className="mb-3" controlId="delete-code">
                <Form.Label>Código do aplicativo autenticador</Form.Label>
                <Form.Control inputMode="numeric" autoComplete="one-time-code" value={code} isInvalid={Boolean(errors.code)} onChange={(e) => setCode(e.currentTarget.value)} />
                <Form.Control.Feedback type="invalid" role="alert">
                  {errors.code}
                </Form.Control.Feedback>
              </Form.Group>
            )}
            <Button type="submit" variant="danger" disabled={busy}>
              Excluir minha conta
            </Button>
          </Form>
        </Card.Body>
      </Card>
    </>
  );
}
