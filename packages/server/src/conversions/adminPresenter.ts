/** A conversion as the admin screens see it: the user's JSON plus its owner's email. */
import type { AdminConversion } from '@aabify/shared';
import type { Conversion } from '../models/index.js';
import { presentConversion, type PresentOptions } from './presenter.js';

export function presentAdminConversion(c: Conversion, opts: PresentOptions): AdminConversion {
  const owner = c.user;
  return {
    ...presentConversion(c, opts),
    user: owner ? { id: owner.id, _id: owner.id, email: owner.email } : null,
  };
}
