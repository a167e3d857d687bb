import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { Icon } from '../../components/Icon';
import { recoveryCodesFile, SECURITY_PAGE_TEXTS } from '../../lib/security';
import { useSession } from '../../stores/session';
import { toast } from '../../stores/toasts';

/** The recovery codes just made, shown this once: copy them or save them as a file. */
export function RecoveryCodes({ codes, onClose }: { codes: readonly string[]; onClose(): void }) {
  const email = useSession((s) => s.user?.email ?? '');
  const text = recoveryCodesFile(email, codes);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success('Códigos copiados.');
    } catch {
      toast.error('Não foi possível copiar: selecione os códigos e copie-os manualmente.');
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'aabify-codigos-de-recuperacao.txt';
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <Alert variant="warning" data-testid="recovery-codes">
      <h3 className="h6">{SECURITY_PAGE_TEXTS.recoveryTitle}</h3>
      <p className="small">{SECURITY_PAGE_TEXTS.recoveryHelp}</p>
      <ol className="recovery-codes font-monospace mb-3" aria-label={SECURITY_PAGE_TEXTS.recoveryTitle}>
        {codes.map((code) => (
          <li key={code} data-testid="recovery-code">
            {code}
          </li>
        ))}
      </ol>
      <div className="d-flex flex-wrap gap-2">
        <Button size="sm" variant="outline-dark" onClick={() => void copy()}>
          <Icon name="clipboard" className="me-1" />
          Copiar
        </Button>
        <Button size="sm" variant="outline-dark" onClick={download}>
          <Icon name="download" className="me-1" />
          Baixar .txt
        </Button>
        <Button size="sm" variant="dark" onClick={onClose} data-testid="recovery-codes-done">
          Já guardei os códigos
        </Button>
      </div>
    </Alert>
  );
}
