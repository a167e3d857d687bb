/**
 * Stream tickets: what goes in the `?token=` of GET /conversion/updates/{id}. A browser's
 * EventSource cannot send headers, and a long-lived token in a URL ends up in proxy and access
 * logs; a ticket opens one stream of one conversion, within a minute, once. Only its SHA-256
 * is stored, and the UPDATE that marks it used is atomic, so two processes cannot both redeem
 * it. It is a capability (accounts/capabilities.ts): the credential it was minted with is kept
 * and checked again at redemption, so a session ended or an API token revoked in between opens
 * nothing.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Op } from 'sequelize';
import { CONVERSION_LIMITS, CONVERSION_MESSAGES, type StreamTicketResponse } from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { Conversion, User } from '../models/index.js';
import type { Credential } from '../accounts/authService.js';
import { capabilityHolder, recordCredential } from '../accounts/capabilities.js';
import { ApiError } from '../http/errors.js';

const TICKET_PREFIX = 'sse_';
const TICKET_SHAPE = /^sse_[A-Za-z0-9_-]{43}$/;

const hashTicket = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

/** True for something that looks like a ticket (a session JWT or an `aab_` token does not). */
export function isStreamTicketShaped(raw: string): boolean {
  return raw.startsWith(TICKET_PREFIX);
}

/** A ticket for `conversion`'s stream, acting with `credential` (the caller checked ownership). */
export async function mintStreamTicket(ctx: Pick<AppContext, 'models'>, conversion: Conversion, credential: Credential): Promise<StreamTicketResponse> {
  const { StreamTicket } = ctx.models;
  const now = new Date();
  // Tickets live a minute: whatever has expired goes now (an index range), so the table holds
  // at most a minute of tickets.
  await StreamTicket.destroy({ where: { expiresAt: { [Op.lt]: now } } });
  const open = await StreamTicket.count({ where: { userId: credential.userId, usedAt: null } });
  if (open >= CONVERSION_LIMITS.streamTicketsPerUser) throw ApiError.tooManyRequests(CONVERSION_LIMITS.streamTicketTtlSeconds, CONVERSION_MESSAGES.tooManyStreamTickets);
  const ticket = TICKET_PREFIX + randomBytes(32).toString('base64url');
  const ttl = CONVERSION_LIMITS.streamTicketTtlSeconds;
  const expiresAt = new Date(now.getTime() + ttl * 1000);
  await StreamTicket.create({
    tokenHash: hashTicket(ticket),
    userId: credential.userId,
    conversionId: conversion.id,
    credential: recordCredential(credential),
    expiresAt,
  });
  return { ticket, conversionId: conversion.id, expiresIn: ttl, expiresAt: expiresAt.toISOString() };
}

/**
 * The user and credential of a ticket for `conversionId`'s stream, spending it: 401 for an
 * unknown, used or expired ticket or one whose credential no longer holds; 404 when it was
 * minted for another conversion.
 */
export async function redeemStreamTicket(ctx: Pick<AppContext, 'models' | 'auth'>, ticket: string, conversionId: string): Promise<{ user: User; credential: Credential }> {
  const invalid = () => ApiError.unauthorized(CONVERSION_MESSAGES.streamTicketInvalid, 'STREAM_TICKET_INVALID');
  if (!TICKET_SHAPE.test(ticket)) throw invalid();
  const now = new Date();
  const [count, rows] = await ctx.models.StreamTicket.update({ usedAt: now }, { where: { tokenHash: hashTicket(ticket), usedAt: null }, returning: true });
  const row = rows[0];
  if (count !== 1 || !row) throw invalid();
  if (row.expiresAt.getTime() <= now.getTime()) throw ApiError.unauthorized(CONVERSION_MESSAGES.streamTicketExpired, 'STREAM_TICKET_EXPIRED');
  const result = await capabilityHolder(ctx.auth, row.credential);
  if (!result.ok) throw ApiError.unauthorized(result.message, result.code);
  if (row.conversionId !== conversionId) throw ApiError.notFound(CONVERSION_MESSAGES.notFoundOrUnauthorized, 'CONVERSION_NOT_FOUND');
  return { user: result.user, credential: result.credential };
}
