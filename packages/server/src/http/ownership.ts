/**
 * Ownership: one way for every route to load a resource of the signed-in user. Another
 * user's resource answers 404, exactly like one that does not exist (no existence leak);
 * admins reach every resource.
 *
 *   const conversion = await findOwned(ctx.models.Conversion, req.params.id, authUser(req));
 */
import { isUuid } from '@aabify/shared';
import { DataTypes, type FindOptions, type Model, type ModelStatic, type WhereOptions } from 'sequelize';
import type { User } from '../models/index.js';
import { ApiError } from './errors.js';

export interface FindOwnedOptions<M extends Model> extends Omit<FindOptions<M>, 'where'> {
  /** Attribute holding the owner's user id (default userId). */
  ownerKey?: string;
  /** pt-BR message of the 404 (default 'Recurso não encontrado.'). */
  notFoundMessage?: string;
  notFoundCode?: string;
  /** Admins reach every user's resource (default true); false for personal things. */
  adminBypass?: boolean;
  /** Extra conditions (e.g. a status), combined with id and owner. */
  where?: WhereOptions;
}


function idIsWellFormed<M extends Model>(model: ModelStatic<M>, id: string): boolean {
  const attributes: Record<string, { type?: unknown } | undefined> = model.getAttributes();
  const type = attributes[model.primaryKeyAttribute]?.type;
  if (type instanceof DataTypes.UUID) return isUuid(id);
  if (type instanceof DataTypes.INTEGER || type instanceof DataTypes.BIGINT) return /^\d{1,18}$/.test(id);
  return id.length > 0;
}

/** The resource or null; use findOwned for the 404. */
export async function findOwnedOrNull<M extends Model>(
  model: ModelStatic<M>,
  id: unknown,
  user: User,
  options: FindOwnedOptions<M> = {},
): Promise<M | null> {
  const { ownerKey = 'userId', notFoundMessage: _m, notFoundCode: _c, adminBypass = true, where, ...find } = options;
  if (typeof id !== 'string' || !idIsWellFormed(model, id)) return null;
  const conditions: Record<string, unknown> = { [model.primaryKeyAttribute]: id };
  if (!(adminBypass && user.isAdmin())) conditions[ownerKey] = user.id;
  const combined = where ? { ...(where as Record<string, unknown>), ...conditions } : conditions;
  return model.findOne({ ...find, where: combined as WhereOptions<M> } as FindOptions<M>);
}

export async function findOwned<M extends Model>(
  model: ModelStatic<M>,
  id: unknown,
  user: User,
  options: FindOwnedOptions<M> = {},
): Promise<M> {
  const found = await findOwnedOrNull(model, id, user, options);
  if (!found) throw ApiError.notFound(options.notFoundMessage, options.notFoundCode);
  return found;
}

/**
 * findOwned for a resource read through `load` (a cache of the whole row, e.g.
 * conversions/rowCache.ts) instead of a query with the owner in its conditions:
 * the same rules and the same 404 for a malformed id, a missing row or another user's.
 */
export async function findOwnedThrough<M extends Model>(
  model: ModelStatic<M>,
  id: unknown,
  user: User,
  load: (id: string) => Promise<M | null>,
  options: Pick<FindOwnedOptions<M>, 'ownerKey' | 'notFoundMessage' | 'notFoundCode' | 'adminBypass'> = {},
): Promise<M> {
  const { ownerKey = 'userId', adminBypass = true } = options;
  const found = typeof id === 'string' && idIsWellFormed(model, id) ? await load(id) : null;
  if (found && ((adminBypass && user.isAdmin()) || found.get(ownerKey) === user.id)) return found;
  throw ApiError.notFound(options.notFoundMessage, options.notFoundCode);
}
