/**
 * The simulator's page: pick a connection and a contact number, then chat as that contact (text,
 * image, audio, document, location), see the replies and mark them read. Plain HTML and a little JS
 * over the control API; it polls, which is plenty for one person.
 */
export const simulatorPage = /* html */ `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Conversa WhatsApp simulator</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 0; display: flex; height: 100vh; background: #f0f2f5; }
  aside { width: 300px; background: #fff; border-right: 1px solid #ddd; padding: 12px; overflow: auto; }
  main { flex: 1; display: flex; flex-direction: column; }
  h1 { font-size: 16px; margin: 0 0 12px; }
  .conn { border: 1px solid #ddd; border-radius: 6px; padding: 8px; margin-bottom: 8px; cursor: pointer; }
  .conn.selected { border-color: #00a884; background: #e7f8f3; }
  .conn small { color: #666; display: block; }
  .conn img { width: 200px; display: block; margin: 6px auto; }
  header { padding: 10px 12px; background: #fff; border-bottom: 1px solid #ddd; display: flex; gap: 8px; align-items: center; }
  #log { flex: 1; overflow: auto; padding: 12px; display: flex; flex-direction: column; gap: 6px; }
  .msg { max-width: 60%; padding: 6px 10px; border-radius: 8px; background: #fff; white-space: pre-wrap; word-break: break-word; }
  .msg.contact { align-self: flex-end; background: #d9fdd3; }
  .msg .meta { font-size: 11px; color: #667; text-align: right; }
  .msg.deleted { font-style: italic; color: #888; }
  .ticks.read { color: #53bdeb; }
  .msg img { max-width: 240px; display: block; }
  footer { display: flex; gap: 6px; padding: 10px; background: #fff; border-top: 1px solid #ddd; }
  footer input[type=text] { flex: 1; padding: 8px; }
  .empty { color: #777; margin: auto; }
</style>
</head>
<body>
<aside>
  <h1>WhatsApp simulator</h1>
  <div id="connections"><p class="empty">No phone sessions yet. Create a connection in Conversa.</p></div>
</aside>
<main>
  <header>
    <label>Contact number <input id="number" value="5511988887777" size="16"></label>
    <label title="the WhatsApp profile name the contact's messages carry (pushName); empty sends none">Name <input id="pushname" value="Maria Silva" size="14"></label>
    <label><input type="checkbox" id="autoread" checked> mark replies read</label>
    <span id="status"></span>
  </header>
  <div id="log"><p class="empty">Pick a connection on the left.</p></div>
  <footer>
    <input type="text" id="text" placeholder="Write as the contact, Enter to send">
    <button id="send">Send</button>
    <label title="image, audio or document">&#128206;<input type="file" id="file" hidden></label>
    <button id="location" title="send a location">&#128205;</button>
  </footer>
</main>
<script>
const state = { connection: null };
const $ = (id) => document.getElementById(id);
const api = (path, init) => fetch('/api/connections' + path, init).then(async (r) => {
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(body.error || r.statusText);
  return body;
});
const post = (path, body) => api(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body || {}) });
const chatPath = () => '/' + encodeURIComponent(state.connection) + '/contacts/' + encodeURIComponent($('number').value.replace(/\\D/g, '')) + '/messages';
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

async function refreshConnections() {
  const { connections } = await api('');
  if (!state.connection && connections.length) state.connection = connections[0].id;
  $('connections').innerHTML = connections.length ? connections.map((c) =>
    '<div class="conn' + (c.id === state.connection ? ' selected' : '') + '" data-id="' + esc(c.id) + '">' +
    '<b>Connection ' + esc(c.connectionId) + '</b> of company ' + esc(c.companyId) +
    '<small>' + esc(c.status) + (c.number ? ' as +' + esc(c.number) : '') + (c.online ? '' : ' (device offline)') + '</small>' +
    (c.status === 'qrcode' ? '<img alt="QR" src="/api/connections/' + encodeURIComponent(c.id) + '/qr.png?r=' + c.retries + '-' + esc(c.qrcode.slice(3, 12)) + '">' +
      '<button data-scan="' + esc(c.id) + '">Scan now</button>' : '') +
    '</div>').join('') : '<p class="empty">No phone sessions yet. Create a connection in Conversa.</p>';
}

async function refreshChat() {
  if (!state.connection) return;
  const { messages } = await api(chatPath());
  const log = $('log');
  const atBottom = log.scrollTop + log.clientHeight >= log.scrollHeight - 20;
  log.innerHTML = messages.map(render).join('') || '<p class="empty">No messages with this contact yet.</p>';
  if (atBottom) log.scrollTop = log.scrollHeight;
  if ($('autoread').checked) {
    for (const m of messages) if (m.from === 'us' && m.ack < 3) post(chatPath() + '/' + encodeURIComponent(m.waMessageId) + '/ack', { ack: 3 }).catch(() => {});
  }
}

function render(m) {
  let content = esc(m.body || '');
  if (m.media) {
    const src = 'data:' + m.media.mimetype + ';base64,' + m.media.base64;
    if (m.media.mimetype.startsWith('image/')) content = '<img src="' + src + '">' + content;
    else if (m.media.mimetype.startsWith('audio/')) content = '<audio controls src="' + src + '"></audio>' + content;
    else content = '<a download="' + esc(m.media.filename || 'file') + '" href="' + src + '">&#128196; ' + esc(m.media.filename || m.media.mimetype) + '</a><br>' + content;
  }
  if (m.location) content = '&#128205; ' + esc(m.location.latitude + ', ' + m.location.longitude + ' ' + (m.location.description || ''));
  if (m.deleted) content = 'This message was deleted';
  const time = new Date(m.timestamp).toLocaleTimeString();
  const ack = m.from === 'us' ? ' <span class="ticks' + (m.ack >= 3 ? ' read' : '') + '">' + (m.ack >= 2 ? '&#10003;&#10003;' : '&#10003;') + '</span>' : '';
  return '<div class="msg ' + m.from + (m.deleted ? ' deleted' : '') + '">' + content +
    '<div class="meta">' + (m.edited ? 'edited ' : '') + time + ack + '</div></div>';
}

async function sendAsContact(body) {
  if (!state.connection) return alert('Pick a connection first');
  const pushName = $('pushname').value.trim();
  try { await post(chatPath(), pushName ? { ...body, pushName } : body); $('status').textContent = ''; await refreshChat(); }
  catch (e) { $('status').textContent = e.message; }
}

$('connections').addEventListener('click', (e) => {
  const scan = e.target.closest('[data-scan]');
  if (scan) { post('/' + encodeURIComponent(scan.dataset.scan) + '/scan').then(refreshConnections); return; }
  const conn = e.target.closest('.conn');
  if (conn) { state.connection = conn.dataset.id; refreshConnections(); refreshChat(); }
});
$('send').onclick = () => { const text = $('text').value; if (text) { $('text').value = ''; sendAsContact({ body: text }); } };
$('text').addEventListener('keydown', (e) => { if (e.key === 'Enter') $('send').click(); });
$('file').onchange = () => {
  const file = $('file').files[0];
  if (!file) return;
  const reader = new FileReader();
  reader.onload = () => sendAsContact({ body: $('text').value, media: { mimetype: file.type || 'application/octet-stream', filename: file.name, base64: String(reader.result).split(',')[1] } });
  reader.readAsDataURL(file);
  $('file').value = '';
};
$('location').onclick = () => {
  const where = prompt('latitude, longitude, description', '-23.5505, -46.6333, Sao Paulo');
  if (!where) return;
  const [latitude, longitude, ...rest] = where.split(',');
  sendAsContact({ location: { latitude: Number(latitude), longitude: Number(longitude), description: rest.join(',').trim() } });
};
const tick = () => Promise.all([refreshConnections(), refreshChat()]).catch((e) => { $('status').textContent = e.message; });
tick();
setInterval(tick, 1500);
</script>
</body>
</html>
`;
