/**
 * A network error's code in words, for an attempt to a URL someone typed (a forward, a test event):
 * from the code only, as an error's message may quote the address or the URL. Node's own codes and
 * undici's (fetch), which puts them in `cause`.
 */
export const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "the connection was reset",
  ENOTFOUND: "no such host name",
  EAI_AGAIN: "the host name could not be looked up",
  // c-ares's (lib/outbound/resolve.ts): the DNS servers did not answer in time, or refused.
  ETIMEOUT: "looking up the host name took too long",
  ESERVFAIL: "the DNS servers failed to look up the host name",
  EREFUSED: "the DNS servers refused the look-up",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ETIMEDOUT: "the connection timed out",
  EPIPE: "the connection closed while sending",
  UND_ERR_SOCKET: "the other side closed the connection",
  UND_ERR_CONNECT_TIMEOUT: "the connection timed out",
  DEPTH_ZERO_SELF_SIGNED_CERT: "its TLS certificate is self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: "its TLS certificate is signed by an untrusted authority",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "its TLS certificate is not trusted",
  CERT_HAS_EXPIRED: "its TLS certificate has expired",
  ERR_TLS_CERT_ALTNAME_INVALID: "its TLS certificate is for another host name",
  ERR_SSL_WRONG_VERSION_NUMBER: "the TLS handshake failed (https to a port that speaks http?)",
};
