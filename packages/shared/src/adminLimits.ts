/** The numbers of the admin screens and of the /api/admin/* lists: page sizes, refresh, caps. */
export const ADMIN_LIMITS = {
  /** Admin users list. */
  usersPageSize: 10,
  maxPageSize: 100,
  conversionPageSizes: [10, 25, 50, 100] as const,
  conversionDefaultPageSize: 25,
  /** Above this many pages the page list is windowed. */
  windowedPagesAbove: 7,
  dashboardRefreshMs: 30_000,
  recentConversions: 5,
  searchDebounceMs: 400,
  searchMaxLength: 200,
  /** The subscription plan picker of the user forms loads this many plans. */
  planPickerLimit: 100,
  defaultInitialCredits: 10,
  creditsMax: 1_000_000,
  subscriptionMonthsMax: 120,
  /** Charts of the admin dashboard. */
  chartDays: 30,
  chartMonths: 12,
} as const;
