/**
 * Registering needs no confirmed address, so whoever registers someone else's address can sign
 * in and leave things on the account before its real owner takes it back with an e-mailed reset
 * link (account pre-hijacking). When a reset by e-mail link is the first proof of the address,
 * everything made on the account before it that grants access or acts in the owner's name goes,
 * in the reset's transaction: API tokens, download links, the upload keystore and the Google
 * Play key (both could be the pre-registrant's, signing and publishing as the owner), and the
 * publications still waiting to run. Conversions and purchases stay: they are the account's
 * history and money, and grant nothing by themselves.
 */
import { Op, type Transaction } from 'sequelize';
import { PLAY_MESSAGES } from '@aabify/shared';
import type { AppContext } from '../context.js';

export interface PurgedPreRegistrationAccess {
  apiTokens: number;
  downloadTokens: number;
  keystore: boolean;
  playCredentials: boolean;
  cancelledPublications: number;
}

export async function purgePreRegistrationAccess(
  ctx: Pick<AppContext, 'models'>,
  userId: string,
  transaction: Transaction,
): Promise<PurgedPreRegistrationAccess> {
  const { ApiToken, DownloadToken, UserKeystore, PlayCredential, Publication } = ctx.models;
  const apiTokens = await ApiToken.destroy({ where: { userId }, transaction });
  const downloadTokens = await DownloadToken.destroy({ where: { userId }, transaction });
  const keystores = await UserKeystore.destroy({ where: { userId }, transaction });
  const playCredentials = await PlayCredential.destroy({ where: { userId }, transaction });
  // A publication's job reads its row (and the Play key) when it runs: once failed, it never
  // starts. One already uploading holds its key and may still finish.
  const [cancelledPublications] = await Publication.update(
    { status: 'failed', error: PLAY_MESSAGES.cancelledOnRecovery, errorCode: 'PUBLICATION_CANCELLED', completedAt: new Date() },
    { where: { userId, status: { [Op.in]: ['queued', 'processing'] } }, transaction },
  );
  return { apiTokens, downloadTokens, keystore: keystores > 0, playCredentials: playCredentials > 0, cancelledPublications };
}
