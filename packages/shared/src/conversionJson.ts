/**
 * The JSON of conversions that the server sends: the answers of /api/conversion/* and the
 * real-time messages of a conversion's channel (socket.io and the event stream). Both clients
 * read the server's answers through these types.
 */
import type { ConversionOptions } from './conversionSchemas.js';
import type { ApksReportJson, ConversionReportJson } from './conversionReport.js';
import type { ConversionKind, ConversionLogLevel, ConversionStatus, ConversionUpdateType } from './conversions.js';
import type { PlayCheck } from './playChecklist.js';

export interface ConversionLogEntry {
  id: string;
  timestamp: string;
  level: ConversionLogLevel;
  message: string;
  step: string | null;
}

/** GET /conversion/logs/{id} */
export interface ConversionLogsResponse {
  conversionId: string;
  logs: ConversionLogEntry[];
  total: number;
}

export interface ApiConversion {
  id: string;
  _id: string;
  conversionId: string;
  userId: string;
  fileName: string;
  originalFileName: string;
  /** What the conversion makes: an AAB from an APK, or an APK from an AAB. */
  kind: ConversionKind;
  /** The output's name: the AAB's ('app.aab'), or the APK's ('app.apk') for AAB → APK. */
  filename: string;
  fileSize: number;
  status: ConversionStatus;
  progress: number;
  step: string | null;
  options: ConversionOptions;
  error: string | null;
  errorCode: string | null;
  createdAt: string;
  updatedAt: string;
  queuedAt: string | null;
  processingStartedAt: string | null;
  completedAt: string | null;
  /** Milliseconds from processing start to completion. */
  duration: number | null;
  originalSize: number;
  convertedSize: number | null;
  /** The output file (the AAB, or the APK of AAB → APK), once completed. */
  aabFile: { filename: string; size: number } | null;
  canDownload: boolean;
  /** Seconds a download link stays valid. */
  expiresIn: number;
  /** When the files are purged (retention). */
  filesExpireAt: string | null;
  report: ConversionReportJson | null;
  /** AAB → APK: what was built and what signed it (completed conversions). */
  apks: ApksReportJson | null;
  /** What Google Play would refuse or warn about (completed conversions with a report), blockers first. */
  checklist: PlayCheck[] | null;
  /**
   * Set when an admin reads another user's conversion (support): whose it is, and whether the
   * admin may download its files (the admin.downloadCustomerFiles setting).
   */
  support?: { ownerEmail: string | null; downloadAllowed: boolean };
  queuePosition: number | null;
  totalInQueue: number;
  estimatedTime: number | null;
  averageProcessingTime: number;
  currentlyProcessing: number;
  maxConcurrent: number;
  lastUpdate: string;
  logs?: ConversionLogEntry[];
}

export interface ConversionStartResponse {
  conversionId: string;
  fileName: string;
  fileSize: number;
  status: ConversionStatus;
  queuePosition: number;
  estimatedTime: number;
  message: string;
}

/** GET /conversion/limits: the upload limits the drop-zone shows and enforces. */
export interface ConversionLimitsResponse {
  /** The upload.maxFileSize setting, in bytes (1–500 MB). */
  maxFileSize: number;
}

export interface ConversionHistoryResponse {
  conversions: ApiConversion[];
  total: number;
  page: number;
  limit: number;
  totalPages: number;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
}

export interface UsageInfo {
  hasActivePlan: boolean;
  planId: string | null;
  /** The name of that plan (as the catalogue calls it now); null without a plan. */
  planName: string | null;
  type: 'credit' | 'subscription' | null;
  isActive: boolean;
  credits: number;
  remainingCredits: number;
  expiresAt: string | null;
  isExpired: boolean;
  currentMonthUsage: number;
  remaining: number | 'unlimited';
  canConvert: boolean;
  totalConversions: number;
  planActivatedAt: string | null;
  message: string;
  redirectTo: string | null;
  usageSummary: { userType: 'credit' | 'subscription' | 'admin' | null; credits: number; reservedCredits: number; activeConversions: number };
}

export interface DownloadTokenResponse {
  downloadToken: string;
  filename: string;
  downloadUrl: string;
  expiresIn: number;
  expiresAt: string;
}

/** POST /conversion/updates/{id}/ticket: a single-use ticket for `GET /conversion/updates/{id}?token=`. */
export interface StreamTicketResponse {
  ticket: string;
  conversionId: string;
  expiresIn: number;
  expiresAt: string;
}

export interface DownloadLinkResponse extends DownloadTokenResponse {
  conversionId: string;
  downloadLink: string;
  link: string;
}

export interface AvailableDownload {
  conversionId: string;
  fileName: string;
  filename: string;
  fileSize: number;
  convertedSize: number;
  completedAt: string | null;
  filesExpireAt: string | null;
}

export interface BulkConversionResponse {
  message: string;
  conversions: Array<{ conversionId: string; originalFileName: string; fileName: string; fileSize: number; queuePosition: number; estimatedTime: number }>;
  errors: Array<{ fileName: string; error: string; code: string }>;
}

// ---- real-time -----------------------------------------------------------------------

/** One message on `conversion:{id}` (socket.io) and on the SSE stream. */
export interface ConversionUpdate {
  type: ConversionUpdateType;
  conversionId: string;
  timestamp: string;
  status?: ConversionStatus;
  progress?: number;
  position?: number;
  queuePosition?: number;
  estimatedTime?: number;
  totalWaiting?: number;
  averageProcessingTime?: number;
  currentlyProcessing?: number;
  maxConcurrent?: number;
  log?: ConversionLogEntry;
  message?: string;
  step?: string;
  error?: string;
  code?: string;
  filename?: string;
  fileSize?: number;
  canDownload?: boolean;
  expiresIn?: number;
}

export interface ConversionCreatedEvent {
  conversionId: string;
  fileName: string;
  fileSize: number;
}

/** get_conversion_stats → conversion_stats_response: the conversion, or why not. */
export type ConversionStatsAnswer = ({ success: true } & ApiConversion) | { success: false; conversionId: string; message: string };
