import { useEffect, useState } from 'react';
import Form from 'react-bootstrap/Form';
import { Link } from 'react-router-dom';
import { CONVERSION_LIMITS, VERSION_CODE_FROM_PLAY } from '@aabify/shared';
import { playApi } from '../../api/play';

export const VERSION_CODE_TEXTS = {
  label: 'versionCode do AAB',
  keep: 'Manter o do APK',
  number: 'Definir um número',
  play: 'Uma acima da do Google Play',
  numberLabel: 'Novo versionCode',
  playHint: 'O aabify consulta o Google Play com a sua chave e gera o AAB com o versionCode seguinte ao maior já enviado.',
  playMissing: 'Para usar "uma acima da do Google Play", cadastre a chave da conta de serviço do Google Play.',
  playMissingLink: 'Cadastrar chave do Google Play',
  invalid: `Informe um número inteiro entre 1 e ${CONVERSION_LIMITS.versionCodeMax}.`,
} as const;

/** What the form holds: keep the APK's versionCode, a number typed in, or one above Play's. */
export type VersionCodeChoice = { mode: 'keep' } | { mode: 'number'; value: string } | { mode: 'play' };

/** The `versionCode` option of the choice; an error text when the number typed is not one. */
export function versionCodeOption(choice: VersionCodeChoice): { ok: true; versionCode?: number | typeof VERSION_CODE_FROM_PLAY } | { ok: false; error: string } {
  if (choice.mode === 'keep') return { ok: true };
  if (choice.mode === 'play') return { ok: true, versionCode: VERSION_CODE_FROM_PLAY };
  const n = Number(choice.value.trim());
  if (!/^\d+$/.test(choice.value.trim()) || n < 1 || n > CONVERSION_LIMITS.versionCodeMax) return { ok: false, error: VERSION_CODE_TEXTS.invalid };
  return { ok: true, versionCode: n };
}

/**
 * The versionCode the AAB gets: the APK's, a number, or one above the highest Google Play already
 * has (offered when the account has a Google Play key; the checklist then compares with Play).
 */
export function VersionCodeOption({ choice, onChange, disabled }: { choice: VersionCodeChoice; onChange(next: VersionCodeChoice): void; disabled: boolean }) {
  const [hasPlayKey, setHasPlayKey] = useState<boolean | undefined>(undefined);
  useEffect(() => {
    let live = true;
    playApi.credentials().then(
      (c) => live && setHasPlayKey(c !== null),
      () => live && setHasPlayKey(false),
    );
    return () => {
      live = false;
    };
  }, []);
  const checked = validity(choice);
  return (
    <fieldset className="mt-3" data-testid="version-code-option" disabled={disabled}>
      <legend className="form-label fs-6 mb-1">{VERSION_CODE_TEXTS.label}</legend>
      <Form.Check type="radio" inline id="version-code-keep" name="version-code" label={VERSION_CODE_TEXTS.keep} checked={choice.mode === 'keep'} onChange={() => onChange({ mode: 'keep' })} />
      <Form.Check
        type="radio"
        inline
        id="version-code-number"
        name="version-code"
        label={VERSION_CODE_TEXTS.number}
        checked={choice.mode === 'number'}
        onChange={() => onChange({ mode: 'number', value: '' })}
      />
      <Form.Check
        type="radio"
        inline
        id="version-code-play"
        name="version-code"
        label={VERSION_CODE_TEXTS.play}
        checked={choice.mode === 'play'}
        disabled={hasPlayKey !== true}
        onChange={() => onChange({ mode: 'play' })}
      />
      {choice.mode === 'number' && (
        <Form.Group className="mt-2" style={{ maxWidth: 260 }}>
          <Form.Label htmlFor="version-code-value" className="small">
            {VERSION_CODE_TEXTS.numberLabel}
          </Form.Label>
          <Form.Control
            id="version-code-value"
            inputMode="numeric"
            value={choice.value}
            isInvalid={choice.value !== '' && !checked}
            onChange={(e) => onChange({ mode: 'number', value: e.target.value })}
            data-testid="version-code-value"
          />
          <Form.Control.Feedback type="invalid">{VERSION_CODE_TEXTS.invalid}</Form.Control.Feedback>
        </Form.Group>
      )}
      {/* One hint line whatever the answer, kept while the key is asked for: the button below does not move. */}
      {hasPlayKey === true ? (
        <Form.Text muted className="d-block" data-testid="version-code-hint">
          {VERSION_CODE_TEXTS.playHint}
        </Form.Text>
      ) : hasPlayKey === false ? (
        <Form.Text muted className="d-block" data-testid="version-code-hint">
          {VERSION_CODE_TEXTS.playMissing} <Link to="/account/google-play">{VERSION_CODE_TEXTS.playMissingLink}</Link>
        </Form.Text>
      ) : (
        <Form.Text muted className="d-block invisible" aria-hidden="true">
          {VERSION_CODE_TEXTS.playMissing} <span className="text-decoration-underline">{VERSION_CODE_TEXTS.playMissingLink}</span>
        </Form.Text>
      )}
    </fieldset>
  );
}

function validity(choice: VersionCodeChoice): boolean {
  return versionCodeOption(choice).ok;
}
