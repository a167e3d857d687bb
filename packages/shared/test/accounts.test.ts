import { expect } from 'chai';
import { ValidationError, type Schema } from 'yup';
import {
  changePasswordFormSchema,
  changePasswordSchema,
  conversionMonthKey,
  loginSchema,
  normalizeEmail,
  registerFormSchema,
  registerSchema,
  setupFormSchema,
  setupSchema,
} from '../src/index.js';

async function errorsOf<T>(schema: Schema<T>, value: unknown): Promise<Record<string, string>> {
  try {
    await schema.validate(value, { abortEarly: false });
    return {};
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    const fields: Record<string, string> = {};
    for (const e of err.inner) if (e.path && !(e.path in fields)) fields[e.path] = e.errors[0];
    return fields;
  }
}

describe('account schemas', () => {
  it('login_empty_requiresEmailAndPassword', async () => {
    expect(await errorsOf(loginSchema, {})).to.deep.equal({ email: 'Email é obrigatório', password: 'Senha é obrigatória' });
  });

  it('login_mixedCaseEmail_castToLowercaseTrimmed', async () => {
    expect(await loginSchema.validate({ email: '  Ana@Exemplo.COM ', password: 'x' })).to.deep.equal({ email: 'ana@exemplo.com', password: 'x' });
  });

  it('register_shortPassword_specMessage', async () => {
    expect(await errorsOf(registerSchema, { acceptTerms: true, email: 'a@b.com', password: '12345' })).to.deep.equal({ password: 'A senha deve ter pelo menos 6 caracteres' });
  });

  it('registerForm_confirmationMissingOrDifferent_requiredOrSenhasNaoCoincidem', async () => {
    // Empty says it is required; a different one, that they do not match.
    expect(await errorsOf(registerFormSchema, { acceptTerms: true, email: 'a@b.com', password: '123456' })).to.deep.equal({ confirmPassword: 'As senhas não coincidem' });
    expect(await errorsOf(registerFormSchema, { acceptTerms: true, email: 'a@b.com', password: '123456', confirmPassword: '1234567' })).to.deep.equal({ confirmPassword: 'As senhas não coincidem' });
    expect(await errorsOf(registerFormSchema, { acceptTerms: true, email: 'a@b.com', password: '123456', confirmPassword: '123456' })).to.deep.equal({});
  });

  it('register_confirmationOmitted_acceptedByServerSchema', async () => {
    expect(await errorsOf(registerSchema, { acceptTerms: true, email: 'a@b.com', password: '123456' })).to.deep.equal({});
    // The terms must be accepted: missing or false is the same pt-BR field error.
    for (const acceptTerms of [undefined, false]) {
      expect(await errorsOf(registerSchema, { acceptTerms, email: 'a@b.com', password: '123456' })).to.deep.equal({ acceptTerms: 'Para criar a conta, aceite os Termos de Uso e a Política de Privacidade.' });
    }
  });

  it('setup_invalid_specMessages', async () => {
    expect(await errorsOf(setupFormSchema, {})).to.deep.equal({
      email: 'Email é obrigatório',
      password: 'Senha é obrigatória',
      confirmPassword: 'As senhas não coincidem',
    });
    expect(await errorsOf(setupSchema, { email: 'nope', password: '123' })).to.deep.equal({
      email: 'Email inválido',
      password: 'Senha deve ter no mínimo 6 caracteres',
    });
  });

  it('setup_blankName_defaultsToAdministrador', async () => {
    expect((await setupSchema.validate({ email: 'a@b.com', password: '123456', name: '  ' })).name).to.equal('Administrador');
    expect((await setupSchema.validate({ email: 'a@b.com', password: '123456' })).name).to.equal('Administrador');
    expect((await setupSchema.validate({ email: 'a@b.com', password: '123456', name: ' Bia ' })).name).to.equal('Bia');
  });

  it('changePassword_invalid_specMessages', async () => {
    expect(await errorsOf(changePasswordFormSchema, {})).to.deep.equal({
      currentPassword: 'Senha atual é obrigatória',
      newPassword: 'Nova senha deve ter pelo menos 6 caracteres',
      confirmPassword: 'As senhas não coincidem',
    });
    expect(await errorsOf(changePasswordSchema, { currentPassword: 'abcdef', newPassword: 'abcdef' })).to.deep.equal({
      newPassword: 'A nova senha deve ser diferente da senha atual',
    });
  });

  it('normalizeEmail_anyCase_lowercaseTrimmed', () => {
    expect(normalizeEmail(' A@B.Com ')).to.equal('a@b.com');
  });

  it('conversionMonthKey_utcMidnightFirstOfMonth_stillPreviousMonthInSaoPaulo', () => {
    expect(conversionMonthKey(new Date('2025-07-01T02:00:00Z'))).to.equal('2025-06');
    expect(conversionMonthKey(new Date('2025-07-01T03:00:00Z'))).to.equal('2025-07');
  });
});
