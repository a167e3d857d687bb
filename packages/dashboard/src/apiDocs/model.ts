/**
 * What the API reference (/api/docs) reads from the OpenAPI document: operations grouped by tag,
 * `$ref`s resolved against the components, schemas described in a line. No React here, so it is
 * tested on its own (test/apiDocs.test.ts).
 */
export type Json = Record<string, unknown>;

export interface Operation {
  id: string;
  method: string;
  path: string;
  summary: string;
  description?: string;
  /** 'público', 'sessão ou token de API', 'administrador', or with ?token=. */
  auth: string;
  parameters: Json[];
  requestBody?: { media: string; schema: Json };
  responses: { status: string; description: string; media?: string; schema?: Json }[];
}

export interface TagGroup {
  tag: string;
  operations: Operation[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The object a `#/components/...` reference points at (the value itself when it is not a reference). */
export function resolve(doc: Json, value: Json): Json {
  let current = value;
  for (let depth = 0; typeof current.$ref === 'string' && depth < 10; depth++) {
    const target = (current.$ref as string)
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((at, key) => (at && typeof at === 'object' ? (at as Json)[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), doc);
    if (!target || typeof target !== 'object') return current;
    current = target as Json;
  }
  return current;
}

/** The name a reference gives a schema (`Conversion` for `#/components/schemas/Conversion`). */
export function refName(value: Json): string | undefined {
  return typeof value.$ref === 'string' ? (value.$ref as string).split('/').pop() : undefined;
}

/** `string (email, 6–128)`, `integer ≥ 1`, `"a" | "b"`, `array of Conversion`… */
export function typeLabel(doc: Json, value: Json): string {
  const name = refName(value);
  const s = resolve(doc, value);
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (name && (Array.isArray(s.allOf) || s.type === 'object')) return name;
  if (Array.isArray(s.allOf)) return s.allOf.map((p) => typeLabel(doc, p as Json)).join(' + ');
  const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : [];
  let label = types.filter((t) => t !== 'null').join(' | ') || name || 'qualquer';
  if (label === 'array' && s.items) label = `lista de ${typeLabel(doc, s.items as Json)}`;
  const facts: string[] = [];
  if (typeof s.format === 'string') facts.push(s.format);
  if (s.minLength !== undefined || s.maxLength !== undefined) facts.push(`${s.minLength ?? 0}–${s.maxLength ?? '∞'} caracteres`);
  if (s.minimum !== undefined) facts.push(`≥ ${s.minimum}`);
  if (s.maximum !== undefined) facts.push(`≤ ${s.maximum}`);
  if (s.pattern) facts.push(`padrão ${s.pattern}`);
  if (s.default !== undefined) facts.push(`padrão ${JSON.stringify(s.default)}`);
  if (types.includes('null')) facts.push('ou null');
  return facts.length > 0 ? `${label} (${facts.join(', ')})` : label;
}

/** An object schema's fields (allOf merged), each with its schema and whether it is required. */
export function fieldsOf(doc: Json, value: Json): { name: string; schema: Json; required: boolean }[] {
  const s = resolve(doc, value);
  if (Array.isArray(s.allOf)) return s.allOf.flatMap((part) => fieldsOf(doc, part as Json));
  const properties = (s.properties ?? {}) as Record<string, Json>;
  const required = new Set((s.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, schema]) => ({ name, schema, required: required.has(name) }));
}

function authLabel(security: unknown): string {
  if (!Array.isArray(security) || security.length === 0) return 'público';
  return security.some((s) => s && typeof s === 'object' && Object.keys(s as object).length === 0) ? 'sessão, token de API ou ?token=' : 'sessão ou token de API';
}

export function operationsByTag(doc: Json): TagGroup[] {
  const groups = new Map<string, Operation[]>();
  for (const t of (doc.tags as { name: string }[] | undefined) ?? []) groups.set(t.name, []);
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const body = op.requestBody ? (resolve(doc, op.requestBody as Json).content as Record<string, { schema: Json }>) : undefined;
      const [media, content] = body ? Object.entries(body)[0] : [];
      const responses = Object.entries((op.responses ?? {}) as Record<string, Json>).map(([status, r]) => {
        const response = resolve(doc, r);
        const [rMedia, rContent] = Object.entries((response.content ?? {}) as Record<string, { schema?: Json }>)[0] ?? [];
        return { status, description: String(response.description ?? ''), ...(rMedia ? { media: rMedia } : {}), ...(rContent?.schema ? { schema: rContent.schema } : {}) };
      });
      const description = typeof op.description === 'string' ? op.description : undefined;
      const operation: Operation = {
        id: String(op.operationId ?? `${method}${path}`),
        method: method.toUpperCase(),
        path,
        summary: String(op.summary ?? ''),
        ...(description ? { description } : {}),
        auth: description?.startsWith('Só administradores') ? 'administrador' : authLabel(op.security),
        parameters: ((op.parameters ?? []) as Json[]).map((p) => resolve(doc, p)),
        ...(media && content ? { requestBody: { media, schema: content.schema } } : {}),
        responses,
      };
      const tag = ((op.tags as string[] | undefined) ?? ['Outras'])[0];
      groups.set(tag, [...(groups.get(tag) ?? []), operation]);
    }
  }
  return [...groups].filter(([, ops]) => ops.length > 0).map(([tag, operations]) => ({ tag, operations }));
}
