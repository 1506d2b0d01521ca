// The seal key as the processes that sign seals find it (SEAL_KEY_FILE): made for a ledger with no
// seal yet, never silently for a sealed one (docs/deploy.md, "Backups").
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync } from 'node:fs';
import { assertSealKeyMatches, loadOrCreateSealSigner, readLatestSeal, type Config, type Db, type SealSigner } from '@consentry/infra';

/**
 * SEAL_KEY_FILE's key, for whatever signs seals (`consentry start`'s jobs role; seal, receipt, purge,
 * subject erase). A new key is made only while the ledger has no seal, or when asked for (`consentry
 * seal --new-key`, after a key was lost): once seals exist, a missing file means another machine or a
 * lost key, and a new key made unasked would sign the next seals with a key no published one matches.
 * For the same reason a key file that holds another key than the latest seal's is refused.
 */
export async function sealSignerFor(config: Config, pool: Db, options: { readonly newKey?: boolean } = {}): Promise<SealSigner> {
  const latest = await readLatestSeal(pool);
  if (latest !== null && !options.newKey && !existsSync(config.sealKeyFile)) {
    throw new Error(
      `SEAL_KEY_FILE ${config.sealKeyFile} does not exist: copy the seal key from the machine that runs the jobs role (docs/deploy.md). ` +
        `The ledger's seals are signed with key ${latest.data.keyId}; if that key is lost, \`consentry seal --new-key\` makes a new one for the seals to come.`,
    );
  }
  const signer = await loadOrCreateSealSigner(config.sealKeyFile, { create: latest === null || options.newKey === true });
  assertSealKeyMatches(signer, latest?.data ?? null, { replaceKey: options.newKey });
  return signer;
}

/** SEAL_KEY_FILE's key for a process that only names it (api: receipts): never made, and the ledger's. */
export async function receiptSignerFor(config: Config, pool: Db): Promise<SealSigner> {
  const signer = await loadOrCreateSealSigner(config.sealKeyFile, { create: false });
  assertSealKeyMatches(signer, (await readLatestSeal(pool))?.data ?? null);
  return signer;
}

/**
 * The key `consentry verify` trusts when not given one: this server's own, never a new one (a key
 * made now would fail every seal and sign the next ones). With no seal and no key file, nothing
 * needs a key: a throwaway one, kept nowhere, stands in.
 */
export async function ownSealPublicKey(config: Config, pool: Db): Promise<KeyObject> {
  if (!existsSync(config.sealKeyFile) && (await readLatestSeal(pool)) === null) return generateKeyPairSync('ed25519').publicKey;
  return (await loadOrCreateSealSigner(config.sealKeyFile, { create: false })).publicKey;
}

