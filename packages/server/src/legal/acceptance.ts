/**
 * Recording that an account accepted the Termos de Uso and the Política de Privacidade: the
 * versions, the time and where from (legal_acceptances, the proof of consent), the account's
 * latest versions (what the guard compares), and the account's security log — in one transaction.
 */
import type { Transaction } from 'sequelize';
import type { AppContext } from '../context.js';
import type { User } from '../models/index.js';
import type { AuditActor } from '../audit/actor.js';
import type { RequestOrigin } from '../accounts/signIn.js';
import { recordAudit } from '../audit/recorder.js';
import { userAuditTarget } from '../accounts/userPresenter.js';
import type { LegalVersions } from './documents.js';

type Ctx = Pick<AppContext, 'models' | 'sequelize'>;

export async function recordLegalAcceptance(
  ctx: Ctx,
  user: User,
  versions: LegalVersions,
  origin: RequestOrigin,
  actor: AuditActor,
  options: { transaction?: Transaction } = {},
): Promise<void> {
  const run = async (transaction: Transaction) => {
    await ctx.models.LegalAcceptance.create(
      { userId: user.id, termsVersion: versions.terms, privacyVersion: versions.privacy, address: origin.address, userAgent: origin.userAgent },
      { transaction },
    );
    await user.update({ termsAcceptedVersion: versions.terms, privacyAcceptedVersion: versions.privacy }, { transaction });
    await recordAudit(ctx, { action: 'legal.accepted', actor, target: userAuditTarget(user), accountId: user.id, details: { termsVersion: versions.terms, privacyVersion: versions.privacy } }, { transaction });
  };
  if (options.transaction) await run(options.transaction);
  else await ctx.sequelize.transaction(run);
}
