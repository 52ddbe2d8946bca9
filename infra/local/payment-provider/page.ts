/** The fake payment provider's page: its charges, each with a button that pays it (as the customer's bank would). */
export function paymentProviderPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Payment provider (local Asaas)</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem}table{border-collapse:collapse}td,th{padding:.4rem .8rem;border-bottom:1px solid #ddd;text-align:left}</style>
</head><body>
<h1>Local payment provider</h1>
<p>Charges created by POST /subscription. "Pay" marks one received and calls the webhook as Asaas would.</p>
<p id="result" role="status"></p>
<table><thead><tr><th>Charge</th><th>Reference</th><th>Description</th><th>Value</th><th>Due</th><th>Status</th><th></th></tr></thead><tbody id="rows"></tbody></table>
<p id="empty" hidden>No charges yet: pay an invoice in the app (Subscription, Subscribe now) to create one.</p>
<script>
// Each row is built and returned to replaceChildren (a row appended inside map() left "undefined" text).
async function load() {
  const rows = document.getElementById('rows');
  const payments = (await (await fetch('/api/payments')).json()).filter((p) => !p.deleted);
  document.getElementById('empty').hidden = payments.length > 0;
  rows.replaceChildren(...payments.map((p) => {
    const tr = document.createElement('tr');
    tr.dataset.charge = p.id;
    for (const text of [p.id, p.externalReference, p.description, 'R$ ' + p.value.toFixed(2), p.dueDate, p.status]) {
      const td = document.createElement('td'); td.textContent = text; tr.append(td);
    }
    const td = document.createElement('td');
    // Paid but refused by our webhook (or it was down): Asaas would retry the event; here a person does.
    const refused = p.status === 'RECEIVED' && !(p.webhookStatus >= 200 && p.webhookStatus < 300);
    if (p.status === 'PENDING' || refused) {
      const button = document.createElement('button'); button.textContent = refused ? 'Send the event again' : 'Pay';
      button.onclick = async () => {
        button.disabled = true;
        const res = await fetch('/api/payments/' + encodeURIComponent(p.id) + '/pay', { method: 'POST' });
        const answer = await res.json().catch(() => ({}));
        document.getElementById('result').textContent = res.ok
          ? p.id + ' paid: the webhook answered ' + answer.webhookStatus
          : p.id + ' not paid: ' + (answer.error || res.status);
        load();
      };
      td.append(button);
    }
    tr.append(td);
    return tr;
  }));
}
load(); setInterval(load, 3000);
</script></body></html>`;
}
