/**
 * A test-only issuer for JWT login tests: an EC P-256 key and its self-signed certificate (valid
 * until 2126), made with openssl for these tests. Nothing outside tests trusts it.
 */
export const TEST_ISSUER_CERTIFICATE = `-----BEGIN CERTIFICATE-----
MIIBlzCCAT2gAwIBAgIUU2tiyA06oeGXyoVChxu7QfFjRdIwCgYIKoZIzj0EAwIw
IDEeMBwGA1UEAwwVc2lnaHRsaW5lLXRlc3QtaXNzdWVyMCAXDTI2MTEyMjE4MDgy
M1oYDzIxMjYxMDI5MTgwODIzWjAgMR4wHAYDVQQDDBVzaWdodGxpbmUtdGVzdC1p
c3N1ZXIwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAASPjigIH5WAS/VbRZ1DmUaG
Iv11xy/JwbmJVb8IiAKQ8+SPCuXXhNr544KpUcDWQulyYa7yPkBmc77ryCUofR0c
o1MwUTAdBgNVHQ4EFgQU51c7Wyeu6lv8cjmJyVcGXQW1aRkwHwYDVR0jBBgwFoAU
51c7Wyeu6lv8cjmJyVcGXQW1aRkwDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQD
AgNIADBFAiAiMLx+Zk9vKqQB++Tj0GQaMg8vRLuwI1hVUo6qdrCS8QIhAMo0+Wt+
xZuxnMcjE20RuZNEa6cu/9BwE6lwtVmKIa15
-----END CERTIFICATE-----
`;

export const TEST_ISSUER_PRIVATE_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgAFFaFq3pnT/l47P/
xCl+sg+w7SAScW57+uDGb9trDsehRANCAASPjigIH5WAS/VbRZ1DmUaGIv11xy/J
wbmJVb8IiAKQ8+SPCuXXhNr544KpUcDWQulyYa7yPkBmc77ryCUofR0c
-----END PRIVATE KEY-----
`;
