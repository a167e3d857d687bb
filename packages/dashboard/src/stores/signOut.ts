/** Sign-out across the stores: the session (token, user, log cache, last-user marker), usage, the conversion page, the keystore metadata. */
import { useBulkConversions } from './bulkConversions';
import { useConversions } from './conversions';
import { useKeystore } from './keystore';
import { useUsage } from './planAccess';
import { useSession } from './session';
import { useLegalAcceptance } from './legal';

export function signOutEverywhere(): void {
  useLegalAcceptance.getState().setRequired(false);
  useSession.getState().signOut();
  useUsage.getState().clear();
  useConversions.getState().setOwner(null);
  useKeystore.getState().clear();
  useBulkConversions.getState().clear();
}
