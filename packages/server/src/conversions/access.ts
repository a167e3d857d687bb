/**
 * Who may download a conversion's files: its owner; an admin only when the
 * support.adminDownloads setting allows it (admins otherwise see a customer's conversion page,
 * status and logs for support, but not the customer's app).
 */
import { CONVERSION_MESSAGES, type ApiConversion } from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { Conversion, User } from '../models/index.js';
import { ApiError } from '../http/errors.js';

export async function mayDownloadFiles(ctx: AppContext, conversion: Conversion, user: User): Promise<boolean> {
  if (conversion.userId === user.id) return true;
  if (!user.isAdmin()) return false;
  return (await ctx.settings.get('support.adminDownloads')) === true;
}

/** 403 DOWNLOAD_NOT_ALLOWED for an admin reading a customer's file with the setting off. */
export async function assertMayDownload(ctx: AppContext, conversion: Conversion, user: User): Promise<void> {
  if (await mayDownloadFiles(ctx, conversion, user)) return;
  throw new ApiError(403, 'DOWNLOAD_NOT_ALLOWED', CONVERSION_MESSAGES.adminDownloadNotAllowed);
}

/** A conversion as another user (an admin, for support) reads it: whose it is, and no download unless allowed. */
export async function presentForViewer(ctx: AppContext, conversion: Conversion, viewer: User, presented: ApiConversion): Promise<ApiConversion> {
  if (conversion.userId === viewer.id) return presented;
  const downloadAllowed = await mayDownloadFiles(ctx, conversion, viewer);
  const owner = await ctx.models.User.findByPk(conversion.userId, { paranoid: false, attributes: ['email'] });
  return {
    ...presented,
    canDownload: presented.canDownload && downloadAllowed,
    support: { ownerEmail: owner?.email ?? null, downloadAllowed },
  };
}
