/**
 * Who may download a conversion's files: its owner; an admin only when the
 * support.adminDownloads setting allows it (admins otherwise see a customer's conversion page,
 * status and logs for support, but not the customer's app). Whatever an admin opens of a
 * customer's conversion is recorded in the audit trail.
 */
import type { Request } from 'express';
import { AUDIT_LIMITS, CONVERSION_MESSAGES, type ApiConversion } from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { Conversion, User } from '../models/index.js';
import { ApiError } from '../http/errors.js';
import { requestActor, signedInActor } from '../audit/requestActor.js';
import { recordAudit } from '../audit/recorder.js';

export async function mayDownloadFiles(ctx: Pick<AppContext, 'settings'>, conversion: Conversion, user: User): Promise<boolean> {
  if (conversion.userId === user.id) return true;
  if (!user.isAdmin()) return false;
  return (await ctx.settings.get('support.adminDownloads')) === true;
}

/** 403 DOWNLOAD_NOT_ALLOWED for an admin reading a customer's file with the setting off. */
export async function assertMayDownload(ctx: Pick<AppContext, 'settings'>, conversion: Conversion, user: User): Promise<void> {
  if (await mayDownloadFiles(ctx, conversion, user)) return;
  throw new ApiError(403, 'DOWNLOAD_NOT_ALLOWED', CONVERSION_MESSAGES.adminDownloadNotAllowed);
}

/** A conversion as another user (an admin, for support) reads it: whose it is, and no download unless allowed. */
export async function presentForViewer(ctx: Pick<AppContext, 'settings' | 'models'>, conversion: Conversion, viewer: User, presented: ApiConversion): Promise<ApiConversion> {
  if (conversion.userId === viewer.id) return presented;
  const downloadAllowed = await mayDownloadFiles(ctx, conversion, viewer);
  const owner = await ctx.models.User.findByPk(conversion.userId, { paranoid: false, attributes: ['email'] });
  return {
    ...presented,
    canDownload: presented.canDownload && downloadAllowed,
    support: { ownerEmail: owner?.email ?? null, downloadAllowed },
  };
}

/** A conversion as the audit trail names a target. */
export const conversionAuditTarget = (c: Pick<Conversion, 'id' | 'fileName'>) => ({ type: 'conversion' as const, id: c.id, label: c.fileName });

/**
 * Records an admin opening or downloading a customer's conversion (nothing for an owner). A
 * view is one event per admin and conversion every AUDIT_LIMITS.viewDedupeMinutes: the
 * conversion page polls its status.
 */
export async function recordSupportAccess(
  ctx: Pick<AppContext, 'sequelize'>,
  req: Request,
  viewer: User,
  conversion: Conversion,
  action: 'conversion.viewed' | 'conversion.downloaded',
  details?: Record<string, unknown>,
): Promise<void> {
  if (conversion.userId === viewer.id || !viewer.isAdmin()) return;
  await recordAudit(
    ctx,
    { action, actor: req.auth ? signedInActor(req) : requestActor(req, viewer), target: conversionAuditTarget(conversion), accountId: conversion.userId, details },
    action === 'conversion.viewed' ? { onceWithinMs: AUDIT_LIMITS.viewDedupeMinutes * 60_000 } : {},
  );
}
