/**
 * The API contract checks (test/openapi.test.ts): the routes Express serves against the routes
 * the OpenAPI document lists, and recorded answers (helpers/http.ts startRecording) against the
 * document's answer schemas, with ajv (JSON Schema 2020-12, as OpenAPI 3.1 uses).
 */
import type { Express } from 'express';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { RecordedAnswer } from './http.js';

type Json = Record<string, unknown>;
const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'];

interface Layer {
  rawPath?: string | string[];
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** `METHOD /api/path/{param}` of every route the app serves under /api (the router stack, walked). */
export function servedRoutes(app: Express): string[] {
  const out = new Set<string>();
  const walk = (stack: Layer[], prefix: string): void => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const p of paths) {
          if (typeof p !== 'string') continue;
          for (const method of Object.keys(layer.route.methods)) {
            if (HTTP_METHODS.includes(method)) out.add(`${method.toUpperCase()} ${(prefix + (p === '/' ? '' : p)).replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
          }
        }
      } else if (layer.handle?.stack) {
        const raw = layer.rawPath ?? '/';
        for (const p of Array.isArray(raw) ? raw : [raw]) if (typeof p === 'string') walk(layer.handle.stack, prefix + (p === '/' ? '' : p));
      }
    }
  };
  const router = (app as unknown as { router: { stack: Layer[] } }).router;
  walk(router.stack, '');
  return [...out].filter((r) => / \/api(\/|$)/.test(r)).sort();
}

export function documentedRoutes(doc: Json): string[] {
  const out: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths as Record<string, Json>)) for (const method of Object.keys(ops)) if (HTTP_METHODS.includes(method)) out.push(`${method.toUpperCase()} ${path}`);
  return out.sort();
}

/** The operation of a concrete request path: static segments win over parameters (`/plans/public` over `/plans/{id}`). */
export function findOperation(doc: Json, method: string, path: string): { template: string; operation: Json } | undefined {
  const candidates = Object.entries(doc.paths as Record<string, Json>)
    .filter(([, ops]) => method.toLowerCase() in ops)
    .map(([template]) => ({ template, params: (template.match(/\{/g) ?? []).length }))
    .sort((a, b) => a.params - b.params);
  for (const { template } of candidates) {
    const re = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    if (re.test(path)) return { template, operation: (doc.paths as Record<string, Json>)[template][method.toLowerCase()] as Json };
  }
  return undefined;
}

export class ContractChecker {
  private readonly ajv: Ajv2020;

  constructor(private readonly doc: Json) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: 'openapi', components: doc.components, paths: doc.paths });
  }

  /** What is wrong with one answer (nothing: []). */
  problems(answer: RecordedAnswer): string[] {
    const where = `${answer.method} ${answer.path} → ${answer.status}`;
    const found = findOperation(this.doc, answer.method, answer.path);
    if (!found) return [`${where}: no documented operation matches this request`];
    const responses = found.operation.responses as Record<string, Json>;
    let response = responses[String(answer.status)];
    let pointer = `#/paths/${escapePointer(found.template)}/${answer.method.toLowerCase()}/responses/${answer.status}`;
    if (!response) return [`${where}: status ${answer.status} is not documented for ${answer.method} ${found.template} (documented: ${Object.keys(responses).join(', ')})`];
    if (typeof response.$ref === 'string') {
      pointer = response.$ref;
      response = (this.doc.components as { responses: Record<string, Json> }).responses[response.$ref.split('/').pop()!];
    }
    const content = (response.content ?? {}) as Record<string, Json>;
    const media = answer.contentType.split(';')[0].trim();
    if (Object.keys(content).length === 0) return answer.body === '' ? [] : [`${where}: documented without a body, answered ${media}`];
    if (!(media in content)) return [`${where}: answered ${media || 'no content type'}, documented ${Object.keys(content).join(', ')}`];
    if (media !== 'application/json') return [];
    const validate = this.ajv.getSchema(`openapi${pointer}/content/${escapePointer(media)}/schema`);
    if (!validate) return [`${where}: no schema at ${pointer}`];
    if (validate(answer.body)) return [];
    return (validate.errors ?? []).map((e) => `${where}: body${e.instancePath} ${e.message} ${JSON.stringify(e.params)} (schema ${e.schemaPath})`);
  }
}

function escapePointer(s: string): string {
  return encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'));
}
