import { expect } from 'chai';
import { fieldsOf, operationsByTag, typeLabel, type Json } from '../src/apiDocs/model';

const doc: Json = {
  openapi: '3.1.0',
  tags: [{ name: 'Conversões' }, { name: 'Vazia' }],
  paths: {
    '/api/conversion/status/{id}': {
      get: {
        tags: ['Conversões'],
        summary: 'Status',
        operationId: 'getStatus',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Conversion' } } } }, 401: { $ref: '#/components/responses/Unauthorized' } },
        security: [{ sessionJwt: [] }, { apiToken: [] }],
      },
    },
    '/api/health': { get: { tags: ['Conversões'], summary: 'Saúde', responses: {}, security: [] } },
  },
  components: {
    schemas: {
      Conversion: { allOf: [{ type: 'object', properties: { id: { type: 'string' } }, required: ['id'] }, { type: 'object', properties: { step: { type: ['string', 'null'] } } }] },
    },
    responses: { Unauthorized: { description: 'Sem token', content: { 'application/json': { schema: { type: 'object' } } } } },
  },
};

describe('API reference model', () => {
  it('operationsByTag_groupsResolvesAnswersAndAuth_dropsEmptyTags', () => {
    const groups = operationsByTag(doc);
    expect(groups.map((g) => g.tag)).to.deep.equal(['Conversões']);
    const [status, health] = groups[0].operations;
    expect(status).to.include({ method: 'GET', path: '/api/conversion/status/{id}', auth: 'sessão ou token de API' });
    expect(status.responses.map((r) => [r.status, r.description])).to.deep.equal([['200', 'ok'], ['401', 'Sem token']]);
    expect(health.auth).to.equal('público');
  });

  it('fieldsOf_allOfMerged_requiredKept', () => {
    expect(fieldsOf(doc, { $ref: '#/components/schemas/Conversion' }).map((f) => [f.name, f.required])).to.deep.equal([['id', true], ['step', false]]);
  });

  it('typeLabel_constraintsEnumsAndNull', () => {
    expect(typeLabel(doc, { type: 'string', format: 'email', maxLength: 254 })).to.equal('string (email, 0–254 caracteres)');
    expect(typeLabel(doc, { enum: ['a', 'b'] })).to.equal('"a" | "b"');
    expect(typeLabel(doc, { type: ['string', 'null'] })).to.equal('string (ou null)');
    expect(typeLabel(doc, { type: 'array', items: { $ref: '#/components/schemas/Conversion' } })).to.equal('lista de Conversion');
    expect(typeLabel(doc, { type: 'integer', minimum: 1, default: 10 })).to.equal('integer (≥ 1, padrão 10)');
  });
});
