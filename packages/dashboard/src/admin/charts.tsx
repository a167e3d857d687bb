/** The admin charts (recharts): conversions per day and revenue per month, in the theme's colours. */
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatMoney } from '@aabify/shared';
import { evenTicks, MAX_DATE_TICKS } from '../lib/chartTicks';

const AXIS = { fontSize: 12, fill: 'var(--bs-secondary-color)' } as const;
const TOOLTIP_STYLE = { backgroundColor: 'var(--bs-body-bg)', borderColor: 'var(--bs-border-color)', color: 'var(--bs-body-color)' } as const;

/** '2025-01-31' → '31/01' */
const dayLabel = (d: string) => `${d.slice(8, 10)}/${d.slice(5, 7)}`;
const MONTHS = ['jan', 'fev', 'mar', 'abr', 'mai', 'jun', 'jul', 'ago', 'set', 'out', 'nov', 'dez'];
/** '2025-01' → 'jan/25' */
const monthLabel = (m: string) => `${MONTHS[Number(m.slice(5, 7)) - 1] ?? m.slice(5, 7)}/${m.slice(2, 4)}`;
const moneyOf = (value: unknown) => formatMoney(Math.round(Number(value) * 100));

export function ConversionsPerDayChart({ data }: { data: Array<{ date: string; total: number; completed: number; failed: number }> }) {
  return (
    <div style={{ width: '100%', height: 260 }} data-testid="chart-conversions" role="img" aria-label="Gráfico de conversões por dia nos últimos 30 dias">
      <ResponsiveContainer>
        <BarChart data={data} margin={{ top: 8, right: 8, left: -16, bottom: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--bs-border-color)" />
          <XAxis dataKey="date" tickFormatter={dayLabel} tick={AXIS} ticks={evenTicks(data.map((d) => d.date), MAX_DATE_TICKS)} interval={0} />
          <YAxis allowDecimals={false} tick={AXIS} />
          <Tooltip labelFormatter={(l) => dayLabel(String(l))} contentStyle={TOOLTIP_STYLE} />
          <Legend />
          <Bar dataKey="completed" name="Concluídas" stackId="c" fill="var(--bs-success)" isAnimationActive={false} />
          <Bar dataKey="failed" name="Falharam" stackId="c" fill="var(--bs-danger)" isAnimationActive={false} />
          <Bar dataKey="other" name="Outras" stackId="c" fill="var(--bs-secondary)" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

export function RevenueChart({ data, xKey, label }: { data: Array<Record<string, number | string>>; xKey: string; label: string }) {
  return (
    <div style={{ width: '100%', height: 260 }} data-testid="chart-revenue" role="img" aria-label={label}>
      <ResponsiveContainer>
        <LineChart data={data} margin={{ top: 8, right: 16, left: 8, bottom: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--bs-border-color)" />
          <XAxis
            dataKey={xKey}
            tickFormatter={(v: string) => (/^\d{4}-\d{2}$/.test(v) ? monthLabel(v) : v)}
            tick={AXIS}
            ticks={evenTicks(data.map((d) => d[xKey] ?? ''), MAX_DATE_TICKS)}
            interval={0}
          />
          <YAxis tick={AXIS} tickFormatter={(v: number) => `R$ ${v}`} width={72} />
          <Tooltip formatter={(v) => moneyOf(v)} labelFormatter={(l) => (/^\d{4}-\d{2}$/.test(String(l)) ? monthLabel(String(l)) : String(l))} contentStyle={TOOLTIP_STYLE} />
          <Line type="monotone" dataKey="revenue" name="Receita" stroke="var(--bs-primary)" strokeWidth={2} dot isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}

/** Adds the 'other' series (pending, running, cancelled) so the stacked bars sum to the total. */
export function withOther(days: Array<{ date: string; total: number; completed: number; failed: number }>) {
  return days.map((d) => ({ ...d, other: Math.max(0, d.total - d.completed - d.failed) }));
}

/** Revenue of the best-selling plans of the analytics period. */
export function PlanRevenueChart({ data }: { data: Array<{ name: string; revenue: number; sales: number }> }) {
  return (
    <div style={{ width: '100%', height: 240 }} data-testid="chart-plan-revenue" role="img" aria-label="Gráfico de receita por plano no período">
      <ResponsiveContainer>
        <BarChart data={data} margin={{ top: 8, right: 16, left: 8, bottom: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--bs-border-color)" />
          <XAxis dataKey="name" tick={AXIS} interval={0} />
          <YAxis tick={AXIS} tickFormatter={(v: number) => `R$ ${v}`} width={72} />
          <Tooltip formatter={(v, n) => (n === 'Receita' ? moneyOf(v) : String(v))} contentStyle={TOOLTIP_STYLE} />
          <Bar dataKey="revenue" name="Receita" fill="var(--bs-primary)" maxBarSize={64} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
