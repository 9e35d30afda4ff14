// Reads Bot API call parameters the way the real service accepts them:
// JSON body, form-encoded body, or query string.

export function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export function parseParams(req, body) {
  const params = {};
  const queryIndex = req.url.indexOf('?');
  if (queryIndex !== -1) Object.assign(params, Object.fromEntries(new URLSearchParams(req.url.slice(queryIndex + 1))));
  if (body.length > 0) {
    const type = String(req.headers['content-type'] ?? '');
    if (type.includes('application/x-www-form-urlencoded')) {
      Object.assign(params, Object.fromEntries(new URLSearchParams(body.toString('utf8'))));
    } else {
      Object.assign(params, JSON.parse(body.toString('utf8')));
    }
  }
  return params;
}
