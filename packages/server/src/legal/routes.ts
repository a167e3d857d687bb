import { Router } from 'express';
import {
  LEGAL_DOCUMENT_KINDS,
  LEGAL_MESSAGES,
  acceptLegalSchema,
  type DataProtectionContact,
  type LegalAcceptanceStatus,
  type LegalDocumentKind,
} from '@aabify/shared';
import type { AppContext } from '../context.js';
import { ApiError } from '../http/errors.js';
import { authUser, requireAuth } from '../http/guards.js';
import { inputOf, validate } from '../http/validate.js';
import { signedInActor } from '../audit/requestActor.js';
import { requestOrigin } from '../accounts/signIn.js';
import { legalAcceptanceRequired } from './documents.js';
import { recordLegalAcceptance } from './acceptance.js';
import { presentLegalDocument } from './presenter.js';

export async function dataProtectionOfficer(ctx: Pick<AppContext, 'settings'>): Promise<DataProtectionContact> {
  return { name: await ctx.settings.get('legal.dpoName'), email: await ctx.settings.get('legal.dpoEmail') };
}

/**
 * /api/legal — the Termos de Uso and the Política de Privacidade, readable signed out (the law
 * wants them before sign-up):
 *   GET /terms, GET /privacy → the current version (the privacy policy with the encarregado)
 *   GET /acceptance (signed in) → { required, current, accepted }
 *   POST /acceptance { termsVersion, privacyVersion } (a session) → records the acceptance;
 *     409 LEGAL_VERSION_OUTDATED when a newer version exists than the one read
 * The two signed-in calls are open while acceptance is pending (everything else answers 403
 * LEGAL_ACCEPTANCE_REQUIRED then, http/guards.ts).
 */
export function createLegalRouter(ctx: AppContext): Router {
  const router = Router();
  const pending = { beforeLegalAcceptance: true } as const;

  for (const kind of LEGAL_DOCUMENT_KINDS) {
    router.get(`/${kind}`, async (_req, res) => {
      const texts = await ctx.legal.current();
      res.json(presentLegalDocument(texts[kind], kind === 'privacy' ? await dataProtectionOfficer(ctx) : undefined));
    });
  }

  router.get('/acceptance', requireAuth(ctx, { token: 'any', ...pending }), async (req, res) => {
    const user = authUser(req);
    const current = await ctx.legal.currentVersions();
    const body: LegalAcceptanceStatus = {
      required: legalAcceptanceRequired(user, current),
      current,
      accepted: { terms: user.termsAcceptedVersion ?? null, privacy: user.privacyAcceptedVersion ?? null },
    };
    res.json(body);
  });

  router.post('/acceptance', requireAuth(ctx, pending), validate(acceptLegalSchema), async (req, res) => {
    const user = authUser(req);
    const input = inputOf(req, acceptLegalSchema);
    const current = await ctx.legal.currentVersions();
    if (input.termsVersion !== current.terms || input.privacyVersion !== current.privacy) {
      throw new ApiError(409, 'LEGAL_VERSION_OUTDATED', LEGAL_MESSAGES.versionOutdated, { details: { current } });
    }
    await recordLegalAcceptance(ctx, user, current, requestOrigin(req), signedInActor(req));
    ctx.logger.info({ userId: user.id, ...current }, 'legal documents accepted');
    res.json({ message: LEGAL_MESSAGES.accepted, accepted: current });
  });

  return router;
}

export function parseLegalKind(raw: string): LegalDocumentKind {
  const kind = LEGAL_DOCUMENT_KINDS.find((k) => k === raw);
  if (!kind) throw ApiError.notFound(LEGAL_MESSAGES.kindInvalid, 'LEGAL_DOCUMENT_NOT_FOUND');
  return kind;
}
