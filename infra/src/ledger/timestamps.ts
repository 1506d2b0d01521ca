// RFC 3161 time-stamps for seals (docs/compliance.md, "Time-stamped seals"): a Time-Stamping
// Authority the operator configures (TSA_URL) signs, with its own key and certificate, that a seal's
// hash existed at a time it states. The message imprint is the seal hash itself (SHA-256 of the
// seal's canonical header), so a token names exactly one seal, and through the chain every seal
// before it. The ASN.1 (TimeStampReq, TimeStampResp, CMS SignedData, TSTInfo) and the certificate
// chain are pkijs's; nothing here encodes DER by hand. pkijs and asn1js are loaded on first use:
// every process imports this module through the ledger's index, and only the timestamper, verify and
// receipts need them (about 80 ms of start-up otherwise, issue 35).
import { createHash, randomBytes, X509Certificate } from 'node:crypto';
import { rootCertificates } from 'node:tls';
import type * as Asn1js from 'asn1js';
import type * as Pkijs from 'pkijs';

let libraries: Promise<{ readonly pkijs: typeof Pkijs; readonly asn1js: typeof Asn1js }> | undefined;
const loadLibraries = () => (libraries ??= Promise.all([import('pkijs'), import('asn1js')]).then(([pkijs, asn1js]) => ({ pkijs, asn1js })));

const sha256Oid = '2.16.840.1.101.3.4.2.1';
const tstInfoOid = '1.2.840.113549.1.9.16.1.4';
const signedDataOid = '1.2.840.113549.1.7.2';
const timeStampingPurposeOid = '1.3.6.1.5.5.7.3.8';
/** A reply larger than this is not a time-stamp reply (they are a few KB with the certificate chain). */
const maxReplyBytes = 64 * 1024;

/** Why a token does not prove what it should. */
export type TimestampProblem =
  | 'malformed'
  | 'wrong-imprint'
  | 'bad-signature'
  | 'untrusted-tsa'
  | 'tsa-certificate-expired'
  | 'not-a-tsa-certificate';

/** Why a request for a token failed; `unavailable` and `rejected` are worth retrying later. */
export type TimestampRequestProblem = 'unavailable' | 'rejected' | 'malformed' | 'wrong-imprint' | 'wrong-nonce';

export class TimestampRequestError extends Error {
  constructor(
    readonly problem: TimestampRequestProblem,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'TimestampRequestError';
  }
}

export interface ObtainedTimestamp {
  /** The TimeStampToken, DER, base64. */
  readonly token: string;
  readonly genTime: string;
  readonly serialNumber: string;
}

export interface TimestampCheck {
  readonly ok: boolean;
  readonly problem?: TimestampProblem;
  /** What went wrong, for a person. */
  readonly message: string;
  readonly genTime?: string;
  /** The signing certificate's subject, e.g. `CN=Example TSA,O=Example`. */
  readonly tsa?: string;
  readonly serialNumber?: string;
}

const hex = (bytes: ArrayBuffer | Uint8Array) => Buffer.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)).toString('hex');
const arrayBufferOf = (bytes: Uint8Array): ArrayBuffer => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

/** A DER TimeStampReq for `sealHash` (the imprint, SHA-256) with a fresh nonce, asking for the TSA's certificate. */
export async function buildTimestampRequest(sealHash: string): Promise<{ readonly der: Uint8Array; readonly nonce: string }> {
  const { pkijs, asn1js } = await loadLibraries();
  const nonceBytes = randomBytes(8);
  nonceBytes[0] = (nonceBytes[0]! & 0x7f) | 0x01; // positive, and no leading zero byte to normalise away
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: sha256Oid, algorithmParams: new asn1js.Null() }),
      hashedMessage: new asn1js.OctetString({ valueHex: arrayBufferOf(Buffer.from(sealHash, 'hex')) }),
    }),
    nonce: new asn1js.Integer({ valueHex: arrayBufferOf(nonceBytes) }),
    certReq: true,
  });
  return { der: new Uint8Array(request.toSchema().toBER()), nonce: nonceBytes.toString('hex') };
}

interface ParsedToken {
  readonly signedData: Pkijs.SignedData;
  readonly info: Pkijs.TSTInfo;
}

function parseToken(pkijs: typeof Pkijs, der: Uint8Array): ParsedToken {
  const contentInfo = pkijs.ContentInfo.fromBER(arrayBufferOf(der));
  if (contentInfo.contentType !== signedDataOid) throw new Error('the token is not CMS SignedData');
  const signedData = new pkijs.SignedData({ schema: contentInfo.content });
  if (signedData.encapContentInfo.eContentType !== tstInfoOid || !signedData.encapContentInfo.eContent) throw new Error('the token does not hold a TSTInfo');
  const info = pkijs.TSTInfo.fromBER(signedData.encapContentInfo.eContent.getValue());
  return { signedData, info };
}

const imprintOf = (info: Pkijs.TSTInfo) => ({
  algorithm: info.messageImprint.hashAlgorithm.algorithmId,
  hash: hex(info.messageImprint.hashedMessage.getValue()),
});

const serialOf = (info: Pkijs.TSTInfo) => hex(info.serialNumber.valueBlock.valueHexView).replace(/^0+(?=.)/, '');

/** Asks `tsaUrl` for a token over `sealHash`; checks the reply answers this request (status, imprint, nonce). */
export async function requestTimestamp(tsaUrl: string, sealHash: string, options: { readonly timeoutMs?: number } = {}): Promise<ObtainedTimestamp> {
  const { pkijs } = await loadLibraries();
  const { der, nonce } = await buildTimestampRequest(sealHash);
  let response: Response;
  try {
    response = await fetch(tsaUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply' },
      body: arrayBufferOf(der),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
  } catch (error) {
    throw new TimestampRequestError('unavailable', `the time-stamping authority ${tsaUrl} could not be reached`, { cause: error });
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new TimestampRequestError('unavailable', `the time-stamping authority ${tsaUrl} answered ${response.status}`);
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.byteLength === 0 || bytes.byteLength > maxReplyBytes) {
    throw new TimestampRequestError('malformed', `the time-stamping authority ${tsaUrl} sent ${bytes.byteLength} bytes, not a time-stamp reply`);
  }
  let reply: Pkijs.TimeStampResp;
  try {
    reply = pkijs.TimeStampResp.fromBER(arrayBufferOf(bytes));
  } catch (error) {
    throw new TimestampRequestError('malformed', `the time-stamping authority ${tsaUrl} sent something that is not a time-stamp reply`, { cause: error });
  }
  // 0 granted, 1 grantedWithMods; anything else is a refusal (rejection, waiting, revocation).
  if (reply.status.status > 1 || !reply.timeStampToken) {
    const said = reply.status.statusStrings?.map((text) => text.valueBlock.value).join('; ');
    throw new TimestampRequestError('rejected', `the time-stamping authority ${tsaUrl} refused the request (status ${reply.status.status}${said ? `: ${said}` : ''})`);
  }
  const token = new Uint8Array(reply.timeStampToken.toSchema().toBER());
  let parsed: ParsedToken;
  try {
    parsed = parseToken(pkijs, token);
  } catch (error) {
    throw new TimestampRequestError('malformed', `the time-stamping authority ${tsaUrl} sent a token that cannot be read`, { cause: error });
  }
  const imprint = imprintOf(parsed.info);
  if (imprint.algorithm !== sha256Oid || imprint.hash !== sealHash) {
    throw new TimestampRequestError('wrong-imprint', `the time-stamping authority ${tsaUrl} stamped ${imprint.hash}, not the seal hash ${sealHash}`);
  }
  const answeredNonce = parsed.info.nonce ? hex(parsed.info.nonce.valueBlock.valueHexView).replace(/^00/, '') : undefined;
  if (answeredNonce !== nonce) throw new TimestampRequestError('wrong-nonce', `the time-stamping authority ${tsaUrl} answered another request (nonce)`);
  return { token: Buffer.from(token).toString('base64'), genTime: parsed.info.genTime.toISOString(), serialNumber: serialOf(parsed.info) };
}

/** The certificates of a PEM bundle (TSA_CA_FILE), or the Mozilla roots Node ships when none is given. */
export async function loadTrustAnchors(pem?: string): Promise<Pkijs.Certificate[]> {
  const { pkijs } = await loadLibraries();
  const blocks = pem === undefined ? [...rootCertificates] : (pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []);
  if (pem !== undefined && blocks.length === 0) throw new Error('no PEM certificate found in the time-stamping authorities’ CA file');
  return blocks.map((block) => pkijs.Certificate.fromBER(arrayBufferOf(new X509Certificate(block).raw)));
}

const subjectOf = (certificate: Pkijs.Certificate) => new X509Certificate(Buffer.from(certificate.toSchema().toBER())).subject.replace(/\n/g, ',');

/**
 * Checks a token against what it should stamp: `datum` is the seal's canonical header (sealHeaderBytes),
 * whose SHA-256 is the seal hash. The imprint is that hash, the TSA's signature verifies, its
 * certificate is for time-stamping, chains to one of `trusted`, and was valid at the time the token states.
 */
export async function verifyTimestampToken(token: string, datum: Uint8Array, trusted: readonly Pkijs.Certificate[]): Promise<TimestampCheck> {
  const { pkijs } = await loadLibraries();
  const sealHash = createHash('sha256').update(datum).digest('hex');
  let parsed: ParsedToken;
  try {
    parsed = parseToken(pkijs, Buffer.from(token, 'base64'));
  } catch (error) {
    return { ok: false, problem: 'malformed', message: `the token cannot be read (${(error as Error).message})` };
  }
  const { signedData, info } = parsed;
  const genTime = info.genTime.toISOString();
  const serialNumber = serialOf(info);
  const imprint = imprintOf(info);
  if (imprint.algorithm !== sha256Oid || imprint.hash !== sealHash) {
    return { ok: false, problem: 'wrong-imprint', message: `the token stamps ${imprint.hash}, not the seal hash ${sealHash}`, genTime, serialNumber };
  }
  const certificates = (signedData.certificates ?? []).filter((item): item is Pkijs.Certificate => item instanceof pkijs.Certificate);
  const signerInfo = signedData.signerInfos[0];
  const signer = certificates.find((certificate) => {
    const sid = signerInfo?.sid;
    return sid instanceof pkijs.IssuerAndSerialNumber && certificate.serialNumber.isEqual(sid.serialNumber) && certificate.issuer.isEqual(sid.issuer);
  });
  const tsa = signer ? subjectOf(signer) : undefined;
  const facts = { genTime, serialNumber, ...(tsa ? { tsa } : {}) };
  if (!signer) return { ok: false, problem: 'malformed', message: 'the token does not carry the certificate that signed it', ...facts };
  const signerX509 = new X509Certificate(Buffer.from(signer.toSchema().toBER()));
  if (!(signerX509.keyUsage ?? []).includes(timeStampingPurposeOid)) {
    return { ok: false, problem: 'not-a-tsa-certificate', message: `${tsa} is not certified for time-stamping`, ...facts };
  }
  if (info.genTime < signer.notBefore.value || info.genTime > signer.notAfter.value) {
    return { ok: false, problem: 'tsa-certificate-expired', message: `${tsa}'s certificate was not valid at ${genTime} (valid ${signer.notBefore.value.toISOString()} to ${signer.notAfter.value.toISOString()})`, ...facts };
  }
  let signatureVerified: boolean | null | undefined;
  let chainVerified: boolean | null | undefined;
  try {
    // The chain as it stood at the token's genTime.
    // `data` is the datum: pkijs checks that its hash is the token's imprint.
    const result = await signedData.verify({ signer: 0, checkChain: true, trustedCerts: [...trusted], checkDate: info.genTime, data: arrayBufferOf(datum), extendedMode: true });
    signatureVerified = result.signatureVerified;
    chainVerified = result.signerCertificateVerified;
  } catch (error) {
    const failure = error as Partial<Pkijs.SignedDataVerifyError>;
    signatureVerified = failure.signatureVerified;
    chainVerified = failure.signerCertificateVerified;
    if (signatureVerified === false || (signatureVerified === undefined && chainVerified === undefined)) {
      return { ok: false, problem: 'bad-signature', message: `the token's signature does not verify (${failure.message ?? 'no reason given'})`, ...facts };
    }
  }
  if (signatureVerified === false) return { ok: false, problem: 'bad-signature', message: "the token's signature does not verify", ...facts };
  if (chainVerified !== true) {
    return { ok: false, problem: 'untrusted-tsa', message: `${tsa}'s certificate does not chain to a trusted time-stamping authority`, ...facts };
  }
  return { ok: true, message: `time-stamped by ${tsa} at ${genTime}`, ...facts };
}
