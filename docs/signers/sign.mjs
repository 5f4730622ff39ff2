// Prints the X-Herald-Signature value for one request (Node 18 or later).
// usage: node sign.mjs SECRET UNIX_SECONDS METHOD PATH_AND_QUERY BODY_FILE
import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function heraldSignature(secret, t, method, pathAndQuery, body) {
  const bodyHash = createHash('sha256').update(body).digest('hex');
  const signed = `${t}\n${method}\n${pathAndQuery}\n${bodyHash}`;
  return `t=${t},v2=${createHmac('sha256', secret).update(signed, 'utf8').digest('hex')}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [secret, t, method, path, bodyFile] = process.argv.slice(2);
  console.log(heraldSignature(secret, Number(t), method, path, readFileSync(bodyFile)));
}
