import { useEffect, useState } from 'react';
import Form from 'react-bootstrap/Form';
import { APKS_OUTPUT_TEXTS, type DeviceProfileJson } from '@aabify/shared';
import { conversionApi } from '../../api/conversions';

/** What the form holds: the universal APK, or the device set of one profile. */
export type ApksOutputChoice = { output: 'universal' } | { output: 'device-set'; device: string };

/** The options of the choice (the universal APK is the default: no option). */
export function apksOutputOptions(choice: ApksOutputChoice): { output?: 'device-set'; device?: string } {
  return choice.output === 'device-set' ? { output: 'device-set', device: choice.device } : {};
}

/**
 * AAB → APK: "APK universal" or "Conjunto para um aparelho" with the device profiles the server
 * lists (GET /conversion/device-profiles), named as the download-size estimate names them. Without
 * the list (the call failed) only the universal APK is offered, and the hint says why.
 */
export function ApksOutputOption({ choice, onChange, disabled }: { choice: ApksOutputChoice; onChange(next: ApksOutputChoice): void; disabled: boolean }) {
  const [profiles, setProfiles] = useState<DeviceProfileJson[] | 'error' | undefined>(undefined);
  useEffect(() => {
    let live = true;
    conversionApi.deviceProfiles().then(
      (body) => live && setProfiles(body.profiles),
      () => live && setProfiles('error'),
    );
    return () => {
      live = false;
    };
  }, []);
  const list = Array.isArray(profiles) ? profiles : [];
  const first = list[0];
  return (
    <fieldset className="mt-3" data-testid="apks-output-option" disabled={disabled}>
      <legend className="form-label fs-6 mb-1">{APKS_OUTPUT_TEXTS.legend}</legend>
      <Form.Check
        type="radio"
        inline
        id="apks-output-universal"
        name="apks-output"
        label={APKS_OUTPUT_TEXTS.universal}
        checked={choice.output === 'universal'}
        onChange={() => onChange({ output: 'universal' })}
      />
      <Form.Check
        type="radio"
        inline
        id="apks-output-device-set"
        name="apks-output"
        label={APKS_OUTPUT_TEXTS.deviceSet}
        checked={choice.output === 'device-set'}
        disabled={!first}
        onChange={() => first && onChange({ output: 'device-set', device: first.id })}
      />
      {choice.output === 'device-set' && (
        <Form.Group className="mt-2" style={{ maxWidth: 420 }}>
          <Form.Label htmlFor="apks-device" className="small">
            {APKS_OUTPUT_TEXTS.deviceLabel}
          </Form.Label>
          <Form.Select id="apks-device" value={choice.device} onChange={(e) => onChange({ output: 'device-set', device: e.currentTarget.value })} data-testid="apks-device">
            {list.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
      )}
      <Form.Text muted className="d-block" data-testid="apks-output-hint">
        {profiles === 'error' ? APKS_OUTPUT_TEXTS.profilesUnavailable : choice.output === 'device-set' ? APKS_OUTPUT_TEXTS.deviceSetHint : APKS_OUTPUT_TEXTS.universalHint}
      </Form.Text>
    </fieldset>
  );
}
