// A group's administrators from the page: the header's "Admins" button lists the bots the sandbox knows and the
// people this page added to the group, each with a button that promotes them (POST /client/groups/<id>/promote,
// every right), as the group's owner would in the app. The sandbox refuses someone not in the group, and says so.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);

  /**
   * The Admins dialog: `group()` is the open group's peer (or null), `candidates(group)` who may be promoted
   * (`{ label, admin }`, `admin` the body's `{ bot }` or `{ user }`).
   */
  function setupAdmins({ group, candidates }) {
    const dialog = $('admin-dialog');
    const list = $('admin-candidates');
    const status = $('admin-status');
    $('admins').addEventListener('click', () => {
      const peer = group();
      if (!peer) return;
      status.textContent = '';
      list.replaceChildren(
        ...candidates(peer).map(({ label, admin }) => {
          const item = document.createElement('li');
          const button = document.createElement('button');
          button.type = 'button';
          button.textContent = 'Make administrator';
          button.addEventListener('click', async () => {
            const response = await fetch(`/client/groups/${peer.chatId}/promote`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(admin),
            });
            const envelope = await response.json();
            status.textContent = envelope.ok ? `${label} is an administrator now.` : `Not done: ${envelope.description || `HTTP ${response.status}`}`;
          });
          item.append(label, button);
          return item;
        }),
      );
      dialog.showModal();
    });
  }

  window.hearsayGroupAdmins = { setupAdmins };
})();
