/**
 * The admin plan export: name, type, price, status, popular, sales, revenue.
 * Semicolon-separated with a UTF-8 BOM, as spreadsheet software set to pt-BR expects (the
 * comma is the decimal separator there). Cells that a spreadsheet would run as a formula are
 * prefixed with an apostrophe.
 */
import { PLAN_TYPE_LABELS, formatMoney } from '@aabify/shared';
import type { Plan } from '../models/index.js';

export const PLAN_CSV_HEADER = ['Nome', 'Tipo', 'Preço', 'Status', 'Popular', 'Vendas', 'Receita'];

function cell(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[";\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function plansToCsv(plans: Plan[]): string {
  const lines = [PLAN_CSV_HEADER.map(cell).join(';')];
  for (const p of plans) {
    lines.push(
      [
        p.name,
        PLAN_TYPE_LABELS[p.type],
        formatMoney(p.priceCents, p.currency),
        p.isActive ? 'Ativo' : 'Inativo',
        p.isPopular ? 'Sim' : 'Não',
        p.salesCount,
        formatMoney(p.totalRevenueCents, p.currency),
      ]
        .map(cell)
        .join(';'),
    );
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** planos-2025-01-31.csv (São Paulo date). */
export function planCsvFileName(now: Date = new Date()): string {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  return `planos-${day}.csv`;
}
