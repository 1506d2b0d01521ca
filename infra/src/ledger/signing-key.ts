// The server's Ed25519 seal key. Generated on first start into SEAL_KEY_FILE (mode 0600, never
// logged), it signs every seal; its public half is published at /.well-known/consentry/seal-key so
// anyone can check a seal or a receipt offline. Kept outside the database on purpose: someone who
// can rewrite the database but not read this file cannot forge a seal.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface SealSigner {
  readonly keyId: string;
  readonly publicKey: KeyObject;
  /** The public key as SPKI PEM, as published. */
  readonly publicKeyPem: string;
  /** Ed25519 signature, base64, of the 32 bytes of a hex SHA-256 digest. */
  sign(sealHashHex: string): string;
}

/** base64url SHA-256 of the public key's SPKI DER encoding. */
export function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('base64url');
}

export function signerFromPrivateKey(privateKey: KeyObject): SealSigner {
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error(`The seal key must be an Ed25519 key, not ${privateKey.asymmetricKeyType}`);
  const publicKey = createPublicKey(privateKey);
  return {
    keyId: keyIdOf(publicKey),
    publicKey,
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    sign: (sealHashHex) => sign(null, Buffer.from(sealHashHex, 'hex'), privateKey).toString('base64'),
  };
}

/**
 * Reads the seal key, creating it (and its folder) on first start — unless `create` is false (a
 * process that only serves receipts must use the sealing machine's key, never make its own).
 */
export async function loadOrCreateSealSigner(file: string, options: { create?: boolean } = {}): Promise<SealSigner> {
  let pem: string;
  try {
    pem = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    if (options.create === false) {
      throw new Error(`SEAL_KEY_FILE ${file} does not exist: copy the seal key from the machine that runs the jobs role (docs/deploy.md)`);
    }
    const { privateKey } = generateKeyPairSync('ed25519');
    pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await mkdir(dirname(file), { recursive: true });
    // 'wx': two processes starting together never overwrite each other's key; the loser reads the winner's.
    try {
      await writeFile(file, pem, { mode: 0o600, flag: 'wx' });
    } catch (writeError) {
      if ((writeError as NodeJS.ErrnoException).code !== 'EEXIST') throw writeError;
      pem = await readFile(file, 'utf8');
    }
  }
  try {
    return signerFromPrivateKey(createPrivateKey(pem));
  } catch (error) {
    throw new Error(`SEAL_KEY_FILE ${file} does not hold an Ed25519 private key in PEM form: ${(error as Error).message}`);
  }
}

export function verifySealSignature(publicKey: KeyObject, sealHashHex: string, signatureBase64: string): boolean {
  try {
    return verify(null, Buffer.from(sealHashHex, 'hex'), publicKey, Buffer.from(signatureBase64, 'base64'));
  } catch {
    return false;
  }
}
