import { expect } from 'chai';
import { attachmentName, refusalOf } from '../src/api/download';
import { isApiRequestError } from '../src/api/client';

describe('files saved with the session (api/download.ts)', () => {
  it('attachmentName_eachWayTheServerNamesAFile_keepsAccents', () => {
    const named = (headers: Record<string, string>) => attachmentName(new Headers(headers), 'reserva.bin');
    expect(named({ 'x-filename': encodeURIComponent('meus-dados-conceição.zip') })).to.equal('meus-dados-conceição.zip');
    expect(named({ 'content-disposition': `attachment; filename="recibo-a.pdf"; filename*=UTF-8''${encodeURIComponent('recibo-ação.pdf')}` })).to.equal('recibo-ação.pdf');
    expect(named({ 'content-disposition': 'attachment; filename="planos-2026-11-28.csv"' })).to.equal('planos-2026-11-28.csv');
    expect(named({ 'content-disposition': 'attachment; filename*=UTF-8\'\'%E0%A4%A' })).to.equal('reserva.bin');
    expect(named({})).to.equal('reserva.bin');
  });

  it('refusalOf_jsonErrorOrBareStatus_theApisCodedError', async () => {
    const coded = await refusalOf(new Response(JSON.stringify({ message: 'Compra não encontrada', code: 'PURCHASE_NOT_FOUND' }), { status: 404 }));
    expect(isApiRequestError(coded)).to.equal(true);
    expect([coded.status, coded.code, coded.message]).to.deep.equal([404, 'PURCHASE_NOT_FOUND', 'Compra não encontrada']);
    const limited = await refusalOf(new Response(JSON.stringify({ message: 'Muitas exportações', code: 'RATE_LIMIT' }), { status: 429, headers: { 'retry-after': '30' } }));
    expect([limited.code, limited.retryAfter]).to.deep.equal(['RATE_LIMIT', 30]);
    const bare = await refusalOf(new Response('<html>Bad gateway</html>', { status: 502 }));
    expect(isApiRequestError(bare)).to.equal(true);
    expect([bare.status, bare.code]).to.deep.equal([502, undefined]);
  });
});
