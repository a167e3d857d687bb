/**
 * The API reference at /api/docs: reads /api/openapi.json and shows each resource's routes —
 * method, path, who may call, parameters, request body and answers with their fields. Our own
 * small viewer: bundled with the dashboard, no CDN, no inline script or style (strict CSP).
 */
import { useEffect, useMemo, useState } from 'react';
import { fieldsOf, operationsByTag, refName, resolve, typeLabel, type Json, type Operation } from './model';

const METHOD_COLORS: Record<string, string> = { GET: 'primary', POST: 'success', PUT: 'warning', PATCH: 'info', DELETE: 'danger' };

function SchemaFields({ doc, schema, depth = 0 }: { doc: Json; schema: Json; depth?: number }) {
  const fields = fieldsOf(doc, schema);
  if (fields.length === 0) return <code>{typeLabel(doc, schema)}</code>;
  return (
    <ul className="list-unstyled mb-0 api-fields">
      {fields.map((f) => {
        const inner = resolve(doc, f.schema);
        // Named schemas are expanded once, at the top: deeper ones only show their name.
        const nested = depth < 1 && (fieldsOf(doc, f.schema).length > 0 || (inner.items && fieldsOf(doc, inner.items as Json).length > 0));
        const description = typeof inner.description === 'string' ? inner.description : undefined;
        return (
          <li key={f.name} className="py-1">
            <code>{f.name}</code>
            {f.required ? <span className="badge text-bg-secondary ms-1">obrigatório</span> : null} <span className="text-body-secondary small">{typeLabel(doc, f.schema)}</span>
            {description ? <div className="small text-body-secondary">{description}</div> : null}
            {nested ? (
              <div className="ms-3">
                <SchemaFields doc={doc} schema={inner.items && !refName(f.schema) ? (inner.items as Json) : f.schema} depth={depth + 1} />
              </div>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

function OperationCard({ doc, op }: { doc: Json; op: Operation }) {
  return (
    <details className="card mb-2" id={op.id}>
      <summary className="card-header d-flex flex-wrap gap-2 align-items-center">
        <span className={`badge text-bg-${METHOD_COLORS[op.method] ?? 'secondary'} api-method`}>{op.method}</span>
        <code className="text-break">{op.path}</code>
        <span className="text-body-secondary">{op.summary}</span>
        <span className="badge text-bg-light border ms-auto">{op.auth}</span>
      </summary>
      <div className="card-body">
        {op.description ? <p>{op.description}</p> : null}
        {op.parameters.length > 0 ? (
          <>
            <h3 className="h6">Parâmetros</h3>
            <ul className="list-unstyled">
              {op.parameters.map((p) => (
                <li key={`${String(p.in)}-${String(p.name)}`} className="py-1">
                  <code>{String(p.name)}</code> <span className="badge text-bg-light border">{String(p.in)}</span>
                  {p.required ? <span className="badge text-bg-secondary ms-1">obrigatório</span> : null}{' '}
                  <span className="text-body-secondary small">{typeLabel(doc, (p.schema ?? {}) as Json)}</span>
                </li>
              ))}
            </ul>
          </>
        ) : null}
        {op.requestBody ? (
          <>
            <h3 className="h6">Corpo ({op.requestBody.media})</h3>
            <SchemaFields doc={doc} schema={op.requestBody.schema} />
          </>
        ) : null}
        <h3 className="h6 mt-3">Respostas</h3>
        {op.responses.map((r) => (
          <div key={r.status} className="mb-2">
            <span className={`badge ${r.status.startsWith('2') ? 'text-bg-success' : 'text-bg-secondary'}`}>{r.status}</span> <span>{r.description}</span>
            {r.media && r.media !== 'application/json' ? <span className="text-body-secondary small"> ({r.media})</span> : null}
            {r.schema && r.media === 'application/json' ? (
              <div className="ms-3 mt-1">
                <span className="small text-body-secondary">{refName(r.schema) ?? typeLabel(doc, r.schema)}</span>
                {r.status.startsWith('2') ? <SchemaFields doc={doc} schema={r.schema} /> : null}
              </div>
            ) : null}
          </div>
        ))}
      </div>
    </details>
  );
}

export function ApiReference() {
  const [doc, setDoc] = useState<Json | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [filter, setFilter] = useState('');
  useEffect(() => {
    fetch('/api/openapi.json')
      .then((r) => (r.ok ? (r.json() as Promise<Json>) : Promise.reject(new Error(`HTTP ${r.status}`))))
      .then(setDoc, (e: Error) => setError(e.message));
  }, []);
  const groups = useMemo(() => (doc ? operationsByTag(doc) : []), [doc]);
  if (error) return <div className="alert alert-danger m-4">Não foi possível carregar /api/openapi.json ({error}).</div>;
  if (!doc) return <p className="m-4">Carregando a referência da API…</p>;
  const info = doc.info as Json;
  const needle = filter.trim().toLowerCase();
  const visible = groups
    .map((g) => ({ ...g, operations: g.operations.filter((o) => !needle || `${o.method} ${o.path} ${o.summary}`.toLowerCase().includes(needle)) }))
    .filter((g) => g.operations.length > 0);
  return (
    <div className="container-lg py-4">
      <header className="mb-4">
        <h1 className="h3">{String(info.title)} <span className="badge text-bg-secondary align-middle">{String(info.version)}</span></h1>
        <p className="mb-1">{String(info.description ?? '')}</p>
        <p className="small text-body-secondary">
          OpenAPI {String(doc.openapi)} · <a href="/api/openapi.json">openapi.json</a> · <a href="/">painel</a>
        </p>
        <input className="form-control" type="search" placeholder="Método, caminho ou resumo" aria-label="Filtrar rotas" value={filter} onChange={(e) => setFilter(e.target.value)} />
      </header>
      <nav className="mb-4 d-flex flex-wrap gap-2" aria-label="Recursos">
        {visible.map((g) => (
          <a key={g.tag} className="btn btn-sm btn-outline-secondary" href={`#tag-${g.tag}`}>
            {g.tag} <span className="badge text-bg-secondary">{g.operations.length}</span>
          </a>
        ))}
      </nav>
      {visible.map((g) => (
        <section key={g.tag} id={`tag-${g.tag}`} className="mb-4">
          <h2 className="h5">{g.tag}</h2>
          {g.operations.map((op) => (
            <OperationCard key={op.id} doc={doc} op={op} />
          ))}
        </section>
      ))}
    </div>
  );
}
