/**
 * Moving a plan in the admin list: the rows shown (sorted by display order, ascending) keep
 * the display-order values they already hold, handed out again in the new sequence, so plans
 * on other pages or hidden by a filter keep their place relative to these. Equal or missing
 * values are first spread out (each at least one above the previous) because swapping two
 * equal numbers would change nothing.
 */
export interface OrderedPlan {
  id: string;
  displayOrder: number;
}

export interface PlanOrder {
  planId: string;
  displayOrder: number;
}

/** The rows in their new sequence after moving the one at `from` to `to`. */
export function movePlan<T>(rows: readonly T[], from: number, to: number): T[] {
  const next = [...rows];
  if (from === to || from < 0 || to < 0 || from >= rows.length || to >= rows.length) return next;
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved!);
  return next;
}

/** The display orders to send for `rows` after the move: only plans whose value changes. */
export function reorderedDisplayOrders(rows: readonly OrderedPlan[], from: number, to: number): PlanOrder[] {
  const slots: number[] = [];
  for (const row of rows) {
    const wanted = Math.max(1, Math.trunc(row.displayOrder));
    slots.push(slots.length === 0 ? wanted : Math.max(wanted, slots[slots.length - 1]! + 1));
  }
  return movePlan(rows, from, to)
    .map((row, i) => ({ planId: row.id, displayOrder: slots[i]!, before: row.displayOrder }))
    .filter((o) => o.displayOrder !== o.before)
    .map(({ planId, displayOrder }) => ({ planId, displayOrder }));
}
