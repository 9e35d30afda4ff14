// The sandbox chat page: keeps the user's identity, shows the chat list and one chat, sends through
// POST /client/send and receives everything pushed on GET /client/events (Server-Sent Events); no polling.
// Message text is rendered from its entities by render-text.js, as DOM nodes, never as HTML. On a phone
// one pane shows at a time (list or chat); a restarted sandbox (a new instance id) resets the chats.
// Buttons, the reply keyboard, the command menu, "typing…" and answers to presses: chat-controls.js.
// Groups are listed too: the header's Join/Leave button makes the user a member (or not) through the client API,
// or asks to join a group that approves new members; its Admins button promotes bots and people (group-admins.js).
// A forum group opens on its topics, and a topic on its own messages (forum-view.js).
'use strict';

(() => {
  const ASSISTANT = 'BotMaker';
  const { readIdentity, saveIdentity, userObject, askName, lastChat, rememberChat } = window.hearsayIdentity;
  const $ = (id) => document.getElementById(id);
  const ui = {
    meName: $('me-name'),
    rename: $('rename'),
    chatList: $('chat-list'),
    peerAvatar: $('peer-avatar'),
    peerTitle: $('peer-title'),
    peerSub: $('peer-sub'),
    connection: $('connection'),
    messages: $('messages'),
    composer: $('composer'),
    text: $('text'),
    send: $('send'),
    attach: $('attach'),
    attachInput: $('attach-input'),
    sendError: $('send-error'),
    back: $('back'),
    backUnread: $('back-unread'),
    commandsButton: $('commands-button'),
    membership: $('membership'),
    admins: $('admins'),
    presence: $('presence'),
    topicsBack: $('topics-back'),
  };
  const narrow = window.matchMedia('(max-width: 640px)');

  /** username (lower case) → { peer, messages: Map<message_id, message>, unread, loaded } */
  const chats = new Map();
  let peers = [{ username: ASSISTANT, name: ASSISTANT, kind: 'assistant', mine: false }];
  let current = ASSISTANT;
  let user = null;
  /** The sandbox instance the chats belong to; another one after a reconnect means a restarted server. */
  let instance = null;
  /** True once the user picked a chat: the server's home chat no longer replaces it. */
  let chosen = false;
  /** A chat to open as soon as the list has it: the one open before a reload, or a group just created. */
  let wanted = null;
  /** group chat id (text) → the other people added when this page created it (for links to write as them) */
  const groupOthers = new Map();
  /** group chat ids (text) this page's user asked to join: an administrator (or a bot) decides */
  const asked = new Set();
  /** bot username (lower case) → the problems of its rules */
  const ruleProblems = new Map();
  /** username (lower case) → what the chat shows besides messages (typing, reply keyboard, commands) */
  const chatStates = new Map();
  /** callback_query ids whose answer was already shown */
  const shownAnswers = new Set();
  const controls = window.hearsayChatControls;
  const forum = window.hearsayForum;

  function chatOf(username) {
    const key = username.toLowerCase();
    let chat = chats.get(key);
    if (!chat) {
      // `deleted`: the change counter at each deletion, so that an older copy of the message cannot bring it back.
      chat = { messages: new Map(), deleted: new Map(), unread: 0, loaded: false };
      chats.set(key, chat);
    }
    return chat;
  }

  function peerOf(username) {
    return peers.find((peer) => peer.username.toLowerCase() === username.toLowerCase());
  }

  function isGroup(username) {
    const peer = peerOf(username);
    return Boolean(peer && peer.kind === 'group');
  }

  /** How the client API names a chat: `chat` for a group, `to`/`with` (per `verb`) for a bot or BotMaker. */
  function target(username, verb = 'to') {
    const peer = peerOf(username);
    return peer && peer.kind === 'group' ? { chat: peer.chatId } : { [verb]: username };
  }

  /** A group the user is not in (yet): nothing to read, nothing to send. */
  function outsideGroup(username) {
    const peer = peerOf(username);
    return Boolean(peer && peer.kind === 'group' && !peer.member);
  }

  /** In a forum group the user is in: the open topic (forum.GENERAL or a thread id), null on its topic list; else undefined. */
  function forumTopic(username = current) {
    const peer = peerOf(username);
    return forum.isForum(peer) && peer.member ? forum.openTopic(peer.username) : undefined;
  }

  /** Reads a forum's topics again and shows them if it is open. */
  async function refreshTopics(username) {
    const peer = peerOf(username);
    if (!forum.isForum(peer) || !peer.member) return;
    if ((await forum.loadTopics(user.id, peer.chatId)) && username.toLowerCase() === current.toLowerCase()) renderConversation();
  }

  /** Opens a topic of the open forum (or, with null, its topic list). */
  function showTopic(topic) {
    forum.setOpenTopic(peerOf(current).username, topic);
    ui.sendError.textContent = '';
    renderConversation();
    if (topic !== null) ui.text.focus();
  }

  /** Where the page reads a file of a message: the client API's download, as this user. */
  function fileUrl(fileId) {
    return `/client/file?user=${encodeURIComponent(String(user.id))}&file_id=${encodeURIComponent(fileId)}`;
  }

  function bubble(message) {
    return window.hearsayChatView.messageElement(message, textActions, press, { selfId: user.id, group: isGroup(current), fileUrl });
  }

  function renderChatList() {
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.peer : undefined;
    const items = peers.map((peer) =>
      window.hearsayChatView.chatItem(peer, chatOf(peer.username), {
        current: peer.username.toLowerCase() === current.toLowerCase(),
        broken: ruleProblems.has(peer.username.toLowerCase()),
        onOpen: () => {
          chosen = true;
          // A forum opens on its topic list.
          forum.setOpenTopic(peer.username, null);
          openChat(peer.username);
        },
      }),
    );
    ui.chatList.replaceChildren(...items);
    let unreadElsewhere = 0;
    for (const [key, chat] of chats) if (key !== current.toLowerCase()) unreadElsewhere += chat.unread;
    ui.backUnread.textContent = unreadElsewhere > 0 ? String(unreadElsewhere) : '';
    if (focused) {
      const again = ui.chatList.querySelector(`button[data-peer="${CSS.escape(focused)}"]`);
      if (again) again.focus();
    }
  }

  const textActions = {
    command: (command) => void send(command),
    isPeer: (username) => peerOf(username) !== undefined,
    openPeer: (username) => openChat(peerOf(username).username),
  };

  function renderBanner() {
    window.hearsayChatView.renderRulesBanner(ruleProblems.get(current.toLowerCase()) || []);
  }

  function renderConversation() {
    const peer = peerOf(current) || { username: current, name: current, kind: 'bot' };
    renderConversationHeaderOnly(peer);
    ui.peerAvatar.textContent = window.hearsayChatView.initial(peer.name);
    ui.peerAvatar.className = `avatar ${peer.kind}`;
    renderBanner();
    const chat = chatOf(current);
    const topic = forumTopic();
    ui.messages.setAttribute('aria-label', topic === null ? 'Topics' : 'Messages');
    if (topic === null) {
      ui.messages.replaceChildren(...forum.topicList(peer.username, chat.messages, showTopic));
      renderChatState();
      return;
    }
    const shown = topic === undefined ? [...chat.messages.values()] : [...chat.messages.values()].filter((m) => forum.topicOfMessage(m) === topic);
    const sorted = shown.sort((a, b) => a.message_id - b.message_id);
    if (sorted.length === 0) {
      const empty = groupOthers.has(peer.username) ? window.hearsayPeople.othersNotice(groupOthers.get(peer.username)) : document.createElement('li');
      empty.className = 'empty';
      if (!groupOthers.has(peer.username))
        empty.textContent =
          peer.kind === 'assistant' ? 'Send /newbot to create a bot.' : peer.kind === 'group' ? 'No messages yet.' : 'No messages yet. Send /start.';
      ui.messages.replaceChildren(peer.kind === 'group' && !peer.member ? window.hearsayPeople.outsiderNotice(peer, user.id) : empty);
    } else {
      ui.messages.replaceChildren(...sorted.map(bubble));
    }
    ui.messages.scrollTop = ui.messages.scrollHeight;
    renderChatState();
  }

  function renderChatState() {
    const peer = peerOf(current);
    controls.renderChatState(peer ? peer.name : current, chatStates.get(current.toLowerCase()), (text) => void send(text));
  }

  function setChatState(username, state) {
    chatStates.set(username.toLowerCase(), state);
    if (username.toLowerCase() === current.toLowerCase()) renderChatState();
  }

  async function loadChatState(username) {
    if (outsideGroup(username)) return;
    const query = new URLSearchParams({ user: String(user.id), ...target(username, 'with') });
    const envelope = await (await fetch(`/client/chat-state?${query}`)).json();
    if (envelope.ok) setChatState(username, envelope.result);
  }

  // A press spins its button until the bot answers (a 'changed' event brings the answer) or the press expires.
  async function press(message, data) {
    ui.sendError.textContent = '';
    const failure = await controls.press(userObject(user), target(current), message.message_id, data);
    if (failure) ui.sendError.textContent = `Not pressed: ${failure}`;
  }

  // The history and the live events travel on different connections and can cross: a copy of a message older than
  // the one in hand (by its chat's change counter) must not undo a later change, such as the "why?" under an answer
  // or its deletion.
  function keepLatest(chat, message) {
    const known = chat.messages.get(message.message_id);
    if (known && (known.revision ?? 0) > (message.revision ?? 0)) return false;
    if ((chat.deleted.get(message.message_id) ?? -1) >= (message.revision ?? 0)) return false;
    chat.messages.set(message.message_id, message);
    return true;
  }

  // An edited, pressed or deleted message changes in place.
  function changeMessage(peerUsername, message) {
    const chat = chatOf(peerUsername);
    if (message.deleted) {
      chat.messages.delete(message.message_id);
      chat.deleted.set(message.message_id, message.revision ?? 0);
    } else if (!keepLatest(chat, message)) return;
    const answer = message.callback_answer;
    if (answer && answer.status === 'answered' && answer.from === user.id && !shownAnswers.has(answer.callback_query_id)) {
      shownAnswers.add(answer.callback_query_id);
      controls.showAnswer(answer);
    }
    renderChatList();
    if (peerUsername.toLowerCase() !== current.toLowerCase()) return;
    const element = ui.messages.querySelector(`[data-message-id="${message.message_id}"]`);
    if (!element) return;
    if (message.deleted) element.remove();
    else element.replaceWith(bubble(message));
  }

  // A message for the open chat is appended in place, so screen readers announce only the new one.
  function addMessage(peerUsername, message) {
    const chat = chatOf(peerUsername);
    if (chat.messages.has(message.message_id)) return;
    chat.messages.set(message.message_id, message);
    const isCurrent = peerUsername.toLowerCase() === current.toLowerCase();
    const topic = forumTopic(peerUsername);
    if (topic !== undefined && forum.changesTopics(message)) void refreshTopics(peerUsername);
    if (!isCurrent) {
      if (message.from && message.from.is_bot) chat.unread += 1;
    } else if (topic === null) {
      renderConversation();
    } else if (topic === undefined || forum.topicOfMessage(message) === topic) {
      const empty = ui.messages.querySelector('.empty');
      if (empty) empty.remove();
      const newer = [...ui.messages.children].find((child) => Number(child.dataset.messageId) > message.message_id);
      const element = bubble(message);
      if (newer) ui.messages.insertBefore(element, newer);
      else ui.messages.append(element);
      ui.messages.scrollTop = ui.messages.scrollHeight;
    }
    renderChatList();
  }

  async function loadHistory(username) {
    if (outsideGroup(username)) return;
    const query = new URLSearchParams({ user: String(user.id), ...target(username, 'with') });
    const response = await fetch(`/client/messages?${query}`);
    const envelope = await response.json();
    if (!envelope.ok) return;
    const chat = chatOf(username);
    chat.loaded = true;
    for (const message of envelope.result) keepLatest(chat, message);
    if (username.toLowerCase() === current.toLowerCase()) renderConversation();
    renderChatList();
  }

  function showView(view) {
    document.body.dataset.view = view;
  }

  function openChat(username, { remember = true } = {}) {
    current = username;
    if (remember) rememberChat(user, username);
    showView('chat');
    const chat = chatOf(username);
    chat.unread = 0;
    ui.sendError.textContent = '';
    renderChatList();
    renderConversation();
    if (!chat.loaded) void loadHistory(username);
    void loadChatState(username);
    void refreshTopics(username);
    if (!narrow.matches || chosen) ui.text.focus();
  }

  function send(text, fromComposer = false) {
    return sendFields({ text }, fromComposer);
  }

  // A text, or a photo or file (`{ photo: { data, file_name } }` and a caption) as the client API takes it.
  async function sendFields(fields, fromComposer) {
    ui.send.disabled = true;
    ui.sendError.textContent = '';
    try {
      const response = await fetch('/client/send', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user: userObject(user), ...target(current), ...topicField(), ...fields }),
      });
      const envelope = await response.json();
      if (!envelope.ok) throw new Error(envelope.description || `HTTP ${response.status}`);
      if (fromComposer) ui.text.value = '';
    } catch (error) {
      ui.sendError.textContent = `Not sent: ${error.message}`;
    } finally {
      ui.send.disabled = false;
      ui.text.focus();
    }
  }

  /** In a forum's topic (not General), where a message goes: `topic` of the client API. */
  function topicField() {
    const topic = forumTopic();
    return typeof topic === 'number' && topic !== forum.GENERAL ? { topic } : {};
  }

  // A restarted sandbox numbers messages from 1 again: drop what this page holds and read the chats anew.
  function onHello(hello) {
    const restarted = instance !== null && hello.instance !== instance;
    instance = hello.instance;
    if (restarted) {
      for (const chat of chats.values()) {
        chat.messages.clear();
        chat.deleted.clear();
        chat.unread = 0;
        chat.loaded = false;
      }
      ruleProblems.clear();
      renderConversation();
    }
    home = hello.home;
    openHome();
    // After a reconnect, fetch what arrived while the stream was down (duplicates are ignored by message_id).
    for (const [key, chat] of chats) if (chat.loaded || key === current.toLowerCase()) void loadHistory(peerOf(key) ? peerOf(key).username : key);
  }

  // The page opens on the chat open before a reload (or a group just created), else on the server's home chat
  // (the demo bot) unless the user already picked one.
  let home = null;
  function openHome() {
    if (wanted && peerOf(wanted)) {
      chosen = true;
      const chat = peerOf(wanted).username;
      wanted = null;
      openChat(chat);
      return;
    }
    if (home && !chosen && current === ASSISTANT && peerOf(home)) openChat(peerOf(home).username);
  }

  function connect() {
    const events = new EventSource(`/client/events?user=${encodeURIComponent(String(user.id))}`);
    events.addEventListener('open', () => {
      ui.connection.textContent = 'live';
      ui.connection.className = 'connection live';
    });
    events.addEventListener('error', () => {
      ui.connection.textContent = 'reconnecting…';
      ui.connection.className = 'connection down';
      // The browser gives up on some failures (an error status): start over after a pause.
      if (events.readyState === EventSource.CLOSED) setTimeout(connect, 2000);
    });
    events.addEventListener('hello', (event) => onHello(JSON.parse(event.data)));
    events.addEventListener('bots', (event) => {
      peers = JSON.parse(event.data).bots;
      renderChatList();
      openHome();
      if (peerOf(current)) renderConversationHeaderOnly();
      // Joined a group (here or in another tab): read what it said so far.
      if (peerOf(current) && !chatOf(current).loaded) void loadHistory(current);
    });
    events.addEventListener('message', (event) => {
      const data = JSON.parse(event.data);
      addMessage(data.peer, data.message);
    });
    events.addEventListener('changed', (event) => {
      const data = JSON.parse(event.data);
      changeMessage(data.peer, data.message);
    });
    events.addEventListener('chat', (event) => {
      const data = JSON.parse(event.data);
      setChatState(data.peer, data.state);
    });
    events.addEventListener('rules', (event) => {
      const status = JSON.parse(event.data);
      if (status.problems.length > 0) ruleProblems.set(status.bot.toLowerCase(), status.problems);
      else ruleProblems.delete(status.bot.toLowerCase());
      renderChatList();
      renderBanner();
    });
  }

  function renderConversationHeaderOnly(peer = peerOf(current)) {
    ui.peerTitle.textContent = peer.name;
    const waiting = peer.kind === 'group' && !peer.member && asked.has(String(peer.chatId));
    if (peer.kind === 'group' && peer.member) asked.delete(String(peer.chatId));
    const topic = forumTopic(peer.username);
    if (typeof topic === 'number') {
      const info = forum.topicInfo(peer.username, topic);
      ui.peerTitle.textContent = info.name;
      ui.peerSub.textContent = `topic in ${peer.name}${info.closed ? ' · closed' : ''}`;
    } else if (peer.kind === 'group') {
      const standing = peer.member ? 'you are a member' : waiting ? 'you asked to join: an administrator decides' : 'you are not a member';
      ui.peerSub.textContent = `${forum.isForum(peer) ? 'forum' : 'group'} · ${standing}`;
    } else ui.peerSub.textContent = peer.kind === 'assistant' ? 'creates and manages bots' : `@${peer.username}${peer.mine ? ' · your bot' : ''}`;
    ui.membership.hidden = peer.kind !== 'group';
    ui.membership.textContent = peer.member ? 'Leave' : waiting ? 'Asked to join' : 'Join';
    ui.membership.disabled = waiting;
    ui.admins.hidden = peer.kind !== 'group' || !peer.member;
    // An empty chat must not look like a silent bot: say when no program answers as it (see bot-presence.ts).
    const silent = peer.kind === 'bot' && peer.answering === false;
    ui.presence.hidden = !silent;
    ui.presence.textContent = silent
      ? `No program is answering as @${peer.username}: nothing replies until one runs (the commands BotMaker gave, or hearsay start).`
      : '';
    ui.topicsBack.hidden = typeof topic !== 'number';
    document.body.dataset.topic = typeof topic === 'number' ? 'open' : '';
    // On a forum's topic list there is nowhere to write: a topic is opened first.
    ui.text.disabled = outsideGroup(peer.username) || topic === null;
    ui.text.placeholder = topic === null ? 'Open a topic to write in it' : 'Write a message…';
    ui.send.disabled = ui.text.disabled;
    ui.attach.disabled = ui.text.disabled;
  }

  // Joining loads what the group said before; the service message itself arrives on the event stream.
  async function changeMembership() {
    const peer = peerOf(current);
    if (!peer || peer.kind !== 'group') return;
    ui.sendError.textContent = '';
    const change = peer.member ? 'leave' : 'join';
    const response = await fetch(`/client/groups/${peer.chatId}/${change}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: userObject(user) }),
    });
    const envelope = await response.json();
    if (!envelope.ok) {
      ui.sendError.textContent = `Not done: ${envelope.description || `HTTP ${response.status}`}`;
      return;
    }
    // A group that approves new members takes a request: the user is in once an administrator (or bot) approves.
    if (envelope.result && envelope.result.pending) asked.add(String(peer.chatId));
    else peer.member = change === 'join';
    renderConversationHeaderOnly(peer);
    if (peer.member) {
      void loadHistory(peer.username);
      void loadChatState(peer.username);
      void refreshTopics(peer.username);
    }
  }

  ui.composer.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = ui.text.value;
    if (text.trim() !== '') void send(text, true);
  });
  // A picked file goes out as a photo (an image the service shows) or a document, with the typed text as its caption.
  ui.attach.addEventListener('click', () => ui.attachInput.click());
  ui.attachInput.addEventListener('change', async () => {
    const file = ui.attachInput.files[0];
    ui.attachInput.value = '';
    if (!file) return;
    const media = window.hearsayMediaView;
    const data = await media.readBase64(file);
    const caption = ui.text.value.trim();
    await sendFields({ [media.uploadField(file)]: { data, file_name: file.name }, ...(caption ? { caption } : {}) }, true);
  });
  ui.text.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      ui.composer.requestSubmit();
    }
  });
  ui.commandsButton.addEventListener('click', () => controls.toggleMenu());
  ui.membership.addEventListener('click', () => void changeMembership());
  ui.topicsBack.addEventListener('click', () => showTopic(null));
  ui.back.addEventListener('click', () => {
    showView('list');
    const button = ui.chatList.querySelector(`button[data-peer="${CSS.escape(current)}"]`);
    if (button) button.focus();
  });
  ui.rename.addEventListener('click', async () => {
    user.name = await askName(user.name);
    ui.meName.textContent = user.name;
    saveIdentity(user);
  });

  async function start() {
    user = readIdentity();
    if (!user) {
      const name = await askName('You');
      user = { id: 100000 + Math.floor(Math.random() * 2000000000), name };
      saveIdentity(user);
    }
    ui.meName.textContent = user.name;
    // `?chat=<id>` (a link to write as someone in a group) opens that chat; else the one open before a reload.
    wanted = new URLSearchParams(location.search).get('chat') || lastChat(user);
    window.hearsayPeople.setupLanguage(user, () => saveIdentity(user));
    window.hearsayPeople.setupNewGroup({
      userObject: () => userObject(user),
      bots: () => peers.filter((peer) => peer.kind === 'bot'),
      onCreated: async (chatId, others) => {
        groupOthers.set(String(chatId), others);
        wanted = String(chatId);
        // Creating a group stores no message, so the event stream may not list it yet: ask for the list.
        if (!peerOf(wanted)) {
          const envelope = await (await fetch(`/client/bots?user=${user.id}`)).json();
          if (envelope.ok) {
            peers = envelope.result;
            renderChatList();
          }
        }
        openHome();
      },
    });
    window.hearsayGroupAdmins.setupAdmins({
      group: () => (isGroup(current) ? peerOf(current) : null),
      candidates: (peer) => [
        ...peers.filter((bot) => bot.kind === 'bot').map((bot) => ({ label: `@${bot.username}`, admin: { bot: bot.username } })),
        ...(groupOthers.get(String(peer.chatId)) || []).map((person) => ({ label: person.first_name, admin: { user: person.id } })),
      ],
    });
    openChat(ASSISTANT, { remember: false });
    connect();
  }

  void start();
})();
