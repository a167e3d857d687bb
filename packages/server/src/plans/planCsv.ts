/**
 * The admin plan export: name, type, price, status, popular, sales, revenue, as a pt-BR
 * spreadsheet reads it (http/csv.ts: separator, BOM, formula cells neutralised).
 */
import { PLAN_TYPE_LABELS, formatMoney } from '@aabify/shared';
import type { Plan } from '../models/index.js';
import { CSV_BOM, csvLine } from '../http/csv.js';

export const PLAN_CSV_HEADER = ['Nome', 'Tipo', 'Preço', 'Status', 'Popular', 'Vendas', 'Receita'];

export function plansToCsv(plans: Plan[]): string {
  const lines = [csvLine(PLAN_CSV_HEADER)];
  for (const p of plans) {
    lines.push(
      csvLine([
        p.name,
        PLAN_TYPE_LABELS[p.type],
        formatMoney(p.priceCents, p.currency),
        p.isActive ? 'Ativo' : 'Inativo',
        p.isPopular ? 'Sim' : 'Não',
        p.salesCount,
        formatMoney(p.totalRevenueCents, p.currency),
      ]),
    );
  }
  return `${CSV_BOM}${lines.join('')}`;
}

/** planos-2025-01-31.csv (São Paulo date). */
export function planCsvFileName(now: Date = new Date()): string {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  return `planos-${day}.csv`;
}
