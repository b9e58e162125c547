import { Curve, proto, type KeyPair } from 'baileys';

/**
 * The test root is made once per process, not per network: clients read the root they trust from
 * one process-wide value (`WA_CERT_DETAILS.PUBLIC_KEY`), so two networks started by one test file
 * (or a network restarted mid-test) must be trusted by the same clients.
 */
let root: KeyPair | undefined;

export function testRootKeyPair(): KeyPair {
  root ??= Curve.generateKeyPair();
  return root;
}

/**
 * A chain that is signed correctly but does not bind to the server: the leaf names another key than
 * the static key the server uses, or an issuer serial that is not its intermediate's.
 */
export type CertificateFlaw = 'none' | 'leaf-names-another-key' | 'leaf-wrong-issuer-serial';

/** What the server proves itself with in the handshake: its static key and the chain vouching for it. */
export interface NoiseCertificate {
  staticKeyPair: KeyPair;
  chain: Uint8Array;
}

/**
 * root → intermediate → leaf, as the real network's chain. Clients check the intermediate against the
 * root they trust, the leaf against the intermediate, and that the intermediate names issuer serial 0.
 */
export function issueNoiseCertificate(flaw: CertificateFlaw = 'none'): NoiseCertificate {
  const { Details } = proto.CertChain.NoiseCertificate;
  const intermediate = Curve.generateKeyPair();
  const leaf = Curve.generateKeyPair();
  const now = Math.floor(Date.now() / 1000);
  const validity = { notBefore: now - 3600, notAfter: now + 365 * 24 * 3600 };
  const intermediateDetails = Details.encode({ serial: 1, issuerSerial: 0, key: intermediate.public, ...validity }).finish();
  // Correctly signed either way: only the binding of the leaf to this server (or to its issuer) is wrong.
  const leafKey = flaw === 'leaf-names-another-key' ? Curve.generateKeyPair().public : leaf.public;
  const leafIssuer = flaw === 'leaf-wrong-issuer-serial' ? 7 : 1;
  const leafDetails = Details.encode({ serial: 2, issuerSerial: leafIssuer, key: leafKey, ...validity }).finish();
  const chain = proto.CertChain.encode({
    intermediate: { details: intermediateDetails, signature: Curve.sign(testRootKeyPair().private, intermediateDetails) },
    leaf: { details: leafDetails, signature: Curve.sign(intermediate.private, leafDetails) },
  }).finish();
  return { staticKeyPair: leaf, chain };
}
