import { expect } from 'chai';
import {
  ADMIN_MESSAGES,
  adminCreateUserSchema,
  adminUpdateUserSchema,
  formatSettingValue,
  formatUptime,
  pageWindow,
  validateSettingDraft,
} from '../src/index.js';

describe('admin helpers', () => {
  it('formatUptime_seconds_daysHoursMinutes', () => {
    expect(formatUptime(0)).to.equal('0d 0h 0m');
    expect(formatUptime(93784)).to.equal('1d 2h 3m');
    expect(formatUptime(-5)).to.equal('0d 0h 0m');
  });

  it('pageWindow_sevenOrFewerPages_listsEveryPage', () => {
    expect(pageWindow(1, 7)).to.deep.equal([1, 2, 3, 4, 5, 6, 7]);
    expect(pageWindow(1, 0)).to.deep.equal([]);
  });

  it('pageWindow_moreThanSevenPages_windowsAroundCurrentInSevenSlots', () => {
    expect(pageWindow(1, 20)).to.deep.equal([1, 2, 3, 4, 5, 'ellipsis', 20]);
    expect(pageWindow(10, 20)).to.deep.equal([1, 'ellipsis', 9, 10, 11, 'ellipsis', 20]);
    expect(pageWindow(20, 20)).to.deep.equal([1, 'ellipsis', 16, 17, 18, 19, 20]);
    for (let p = 1; p <= 20; p++) {
      const w = pageWindow(p, 20);
      expect(w, `page ${p}`).to.have.length(7);
      expect(w, `page ${p}`).to.include(p);
    }
  });

  it('validateSettingDraft_badValues_specMessages', () => {
    const size = { key: 'upload.maxFileSize', kind: 'number' as const };
    expect(validateSettingDraft(size, '  ')).to.equal('Valor não pode ser vazio');
    expect(validateSettingDraft(size, 'abc')).to.equal('Valor deve ser um número válido');
    expect(validateSettingDraft(size, '1048575')).to.equal(ADMIN_MESSAGES.settingFileSizeRange);
    expect(validateSettingDraft(size, '524288001')).to.equal(ADMIN_MESSAGES.settingFileSizeRange);
    expect(validateSettingDraft(size, '1048576')).to.equal(undefined);
    expect(validateSettingDraft(size, '0'), '0 = no limit').to.equal(undefined);
    expect(validateSettingDraft({ key: 'logging.level', kind: 'enum', options: ['debug', 'info'] }, 'trace')).to.equal('Use debug, info, warn ou error');
  });

  it('validateSettingDraft_decimalComma_isANumber', () => {
    const rate = { key: 'nfse.issRate', kind: 'number' as const };
    expect(validateSettingDraft(rate, '2,5')).to.equal(undefined);
    expect(validateSettingDraft(rate, '2.5')).to.equal(undefined);
    expect(validateSettingDraft(rate, '2,5,1')).to.equal('Valor deve ser um número válido');
  });

  it('formatSettingValue_knownKeys_readableUnits', () => {
    expect(formatSettingValue('upload.maxFileSize', 104857600)).to.equal('100 MB (104.857.600 bytes)');
    expect(formatSettingValue('upload.maxFileSize', 1572864)).to.equal('1,5 MB (1.572.864 bytes)');
    expect(formatSettingValue('queue.broadcastInterval', 30000)).to.equal('30 s (30.000 ms)');
    expect(formatSettingValue('conversions.retentionDays', 1)).to.equal('1 dia');
    expect(formatSettingValue('conversions.maxDurationSeconds', 600)).to.equal('10 minutos (600 s)');
    expect(formatSettingValue('conversions.maxDurationSeconds', 45)).to.equal('45 segundos');
    expect(formatSettingValue('support.adminDownloads', false)).to.equal('Não');
    expect(formatSettingValue('upload.maxFileSize', 0)).to.equal('0 (ilimitado)');
    expect(formatSettingValue('conversions.concurrentPerUser', 0)).to.equal('0 (ilimitado)');
    expect(formatSettingValue('payments.mercadopago.accessToken', null)).to.equal('Não configurado');
  });

  it('adminCreateUserSchema_creditWithoutCredits_defaultsToTen', async () => {
    const v = await adminCreateUserSchema.validate({ email: ' A@B.com ', password: 'segredo' }, { stripUnknown: true });
    expect(v).to.include({ email: 'a@b.com', userType: 'credit', credits: 10 });
    const sub = await adminCreateUserSchema.validate({ email: 'a@b.com', password: 'segredo', userType: 'subscription', credits: 5 }, { stripUnknown: true });
    expect(sub).to.not.have.property('credits');
  });

  it('adminUpdateUserSchema_blankPassword_isLeftOut', async () => {
    const v = await adminUpdateUserSchema.validate({ password: '', email: '' }, { stripUnknown: true });
    expect(v.password).to.equal(undefined);
    expect(v.email).to.equal(undefined);
  });
});
