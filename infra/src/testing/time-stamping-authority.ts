// A real RFC 3161 Time-Stamping Authority on loopback for tests: OpenSSL's own responder
// (`openssl ts -reply`) behind a small HTTP server that speaks the protocol's HTTP binding
// (RFC 3161 §3.4: POST application/timestamp-query, answer application/timestamp-reply), with a test
// CA the helper creates. It can misbehave as real authorities do: be down, stamp another hash, or
// sign with a certificate from a CA nobody trusts or one that has expired.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** How the authority answers: `good`; `down` (503); `wrong-imprint` (stamps another hash); `untrusted` (its certificate is from another CA); `expired` (its certificate expired in 2021). */
export type TsaBehaviour = 'good' | 'down' | 'wrong-imprint' | 'untrusted' | 'expired';

export interface TestTimeStampingAuthority {
  readonly url: string;
  /** The test root CA that certified the good (and the expired) TSA certificate, PEM. */
  readonly caPem: string;
  readonly caFile: string;
  behave(behaviour: TsaBehaviour): void;
  /** Requests answered so far (any behaviour). */
  requests(): number;
  close(): Promise<void>;
}

const openssl = async (args: readonly string[], cwd: string) => {
  await run('openssl', [...args], { cwd });
};

async function makeCa(dir: string, name: string): Promise<void> {
  mkdirSync(path.join(dir, `${name}-certs`));
  writeFileSync(path.join(dir, `${name}-index.txt`), '');
  writeFileSync(path.join(dir, `${name}-serial`), '1000\n');
  writeFileSync(
    path.join(dir, `${name}.cnf`),
    `[ ca ]
default_ca = this_ca
[ this_ca ]
database = ${dir}/${name}-index.txt
new_certs_dir = ${dir}/${name}-certs
serial = ${dir}/${name}-serial
certificate = ${dir}/${name}.crt
private_key = ${dir}/${name}.key
default_md = sha256
policy = any_name
unique_subject = no
copy_extensions = none
[ any_name ]
commonName = supplied
organizationName = optional
[ tsa_certificate ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = critical, timeStamping
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
`,
  );
  await openssl(
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.crt`, '-days', '3650',
      '-subj', `/CN=${name === 'root' ? 'Consentry Test Root' : 'Somebody Else Root'}/O=Consentry tests`,
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'],
    dir,
  );
}

async function makeTsaCertificate(dir: string, ca: string, name: string, validity: readonly string[]): Promise<void> {
  await openssl(['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}/O=Consentry tests`], dir);
  await openssl(['ca', '-batch', '-config', `${ca}.cnf`, '-extensions', 'tsa_certificate', ...validity, '-in', `${name}.csr`, '-out', `${name}.crt`], dir);
}

function responderConfig(dir: string): string {
  return `[ tsa ]
default_tsa = tsa_config
[ tsa_config ]
serial = ${dir}/tsa-serial
crypto_device = builtin
signer_digest = sha256
default_policy = 1.2.3.4.1
other_policies = 1.2.3.4.5
digests = sha256, sha384, sha512
accuracy = secs:1
ordering = no
tsa_name = yes
ess_cert_id_chain = no
ess_cert_id_alg = sha256
`;
}

export async function startTestTimeStampingAuthority(): Promise<TestTimeStampingAuthority> {
  const dir = mkdtempSync(path.join(tmpdir(), 'consentry-tsa-'));
  await makeCa(dir, 'root');
  await makeCa(dir, 'other');
  await makeTsaCertificate(dir, 'root', 'Consentry Test TSA', ['-days', '365']);
  await makeTsaCertificate(dir, 'root', 'Expired TSA', ['-startdate', '20200101000000Z', '-enddate', '20210101000000Z']);
  await makeTsaCertificate(dir, 'other', 'Untrusted TSA', ['-days', '365']);
  writeFileSync(path.join(dir, 'tsa-serial'), '01\n');
  writeFileSync(path.join(dir, 'tsa.cnf'), responderConfig(dir));

  let behaviour: TsaBehaviour = 'good';
  let answered = 0;
  let next = 0;
  const signers: Record<Exclude<TsaBehaviour, 'down'>, string> = {
    good: 'Consentry Test TSA',
    'wrong-imprint': 'Consentry Test TSA',
    untrusted: 'Untrusted TSA',
    expired: 'Expired TSA',
  };

  const reply = async (query: Buffer): Promise<Buffer> => {
    const id = next++;
    const queryFile = path.join(dir, `q${id}.tsq`);
    const replyFile = path.join(dir, `r${id}.tsr`);
    if (behaviour === 'wrong-imprint') {
      // A request of its own, for a hash nobody asked about.
      const other = createHash('sha256').update(`not what was asked ${id}`).digest('hex');
      await openssl(['ts', '-query', '-digest', other, '-sha256', '-cert', '-out', queryFile], dir);
    } else writeFileSync(queryFile, query);
    const signer = signers[behaviour as Exclude<TsaBehaviour, 'down'>];
    await openssl(['ts', '-reply', '-config', 'tsa.cnf', '-queryfile', queryFile, '-inkey', `${signer}.key`, '-signer', `${signer}.crt`, '-out', replyFile], dir);
    const answer = readFileSync(replyFile);
    rmSync(queryFile, { force: true });
    rmSync(replyFile, { force: true });
    return answer;
  };

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= 16_384) chunks.push(chunk);
    });
    request.on('end', () => {
      answered++;
      if (request.method !== 'POST' || request.headers['content-type'] !== 'application/timestamp-query' || size > 16_384) {
        response.writeHead(400, { 'content-type': 'text/plain' }).end('send a DER TimeStampReq as application/timestamp-query');
        return;
      }
      if (behaviour === 'down') {
        response.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '1' }).end('unavailable');
        return;
      }
      reply(Buffer.concat(chunks)).then(
        (answer) => response.writeHead(200, { 'content-type': 'application/timestamp-reply', 'content-length': answer.length }).end(answer),
        (error: unknown) => response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error)),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const caFile = path.join(dir, 'root.crt');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/tsr`,
    caPem: readFileSync(caFile, 'utf8'),
    caFile,
    behave: (next) => void (behaviour = next),
    requests: () => answered,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
