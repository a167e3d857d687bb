import { expect } from 'chai';
import { PAYMENT_MESSAGES } from '@aabify/shared';
import { conversionErrorMessage, passwordChangeFieldErrors, pixCreateErrorMessage, uploadErrorMessage } from '../src/lib/errors';

describe('error texts', () => {
  it('conversionErrorMessage_byStatus_ptBrTexts', () => {
    expect(conversionErrorMessage({ status: 429 })).to.equal('Limite de requisições excedido');
    expect(conversionErrorMessage({ status: 400 })).to.equal('Dados inválidos');
    expect(conversionErrorMessage({ status: 401, message: 'x' })).to.equal('Não autorizado');
    expect(conversionErrorMessage({ status: 402 })).to.equal('Pagamento necessário');
    expect(conversionErrorMessage({ status: 402, message: 'Créditos insuficientes para fazer conversões.' })).to.equal('Créditos insuficientes para fazer conversões.');
    expect(conversionErrorMessage({ status: 404 })).to.equal('Conversão não encontrada');
    expect(conversionErrorMessage({ status: 503 })).to.equal('Erro interno do servidor');
    expect(conversionErrorMessage({ status: 0 })).to.equal('Erro de conexão');
  });
  it('uploadErrorMessage_rateLimit_saysWhenToRetry', () => {
    expect(uploadErrorMessage({ status: 429, code: 'RATE_LIMIT', retryAfter: 30 })).to.equal('Rate limit atingido. Tente novamente em 30 segundos.');
  });
  it('uploadErrorMessage_otherFailure_erroAoIniciarConversao', () => {
    expect(uploadErrorMessage({ status: 409 })).to.equal('Erro ao iniciar conversão');
  });
  it('pixCreateErrorMessage_byStatus_ptBrTexts', () => {
    expect(pixCreateErrorMessage({ status: 400, message: 'plano inválido' })).to.equal('Erro de validação: plano inválido');
    // The server's answer already says it: the prefix is not doubled.
    expect(pixCreateErrorMessage({ status: 400, message: 'Erro de validação: plano inválido' })).to.equal('Erro de validação: plano inválido');
    expect(pixCreateErrorMessage({ status: 401 })).to.equal('Sessão expirada. Faça login novamente.');
    expect(pixCreateErrorMessage({ status: 500 })).to.equal('Erro interno do servidor. Tente novamente em alguns minutos.');
    expect(pixCreateErrorMessage({ status: 404 })).to.equal('Plano não encontrado…');
    expect(pixCreateErrorMessage({ status: 409 })).to.equal('Erro ao criar pagamento PIX');
    // Payments unavailable (a configured provider in its error state): the server's words, not 'Erro interno'.
    expect(pixCreateErrorMessage({ status: 503, message: PAYMENT_MESSAGES.paymentsUnavailable })).to.equal(PAYMENT_MESSAGES.paymentsUnavailable);
  });
  it('passwordChangeFieldErrors_serverTexts_mappedToFields', () => {
    expect(passwordChangeFieldErrors({ status: 400, message: 'Senha atual incorreta' })).to.deep.equal({ currentPassword: 'Senha atual incorreta' });
    expect(passwordChangeFieldErrors({ status: 400, message: 'A nova senha deve ser diferente da senha atual' })).to.deep.equal({
      newPassword: 'A nova senha deve ser diferente da senha atual',
    });
    expect(passwordChangeFieldErrors({ status: 400, message: 'x', fields: { newPassword: 'curta' } })).to.deep.equal({ newPassword: 'curta' });
  });
});
