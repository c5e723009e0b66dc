// Sextant's enhancing script: copy buttons, "Try it" through the proxy, and an assessment page
// that reloads itself when the assessment finishes. Every page works without it. Nothing here
// writes HTML: all text goes through textContent, so catalog and endpoint text stays text.
// Header values typed into "Try it" are read at each request and sent with it: never stored
// (no cookies, localStorage or sessionStorage) and never logged.
'use strict';
(function () {
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    if (attrs) for (var name in attrs) if (attrs[name] !== undefined && attrs[name] !== null) node.setAttribute(name, attrs[name]);
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  // Copy buttons: shown only when the clipboard can be written.
  function setUpCopy() {
    if (!navigator.clipboard) return;
    document.querySelectorAll('button[data-copy]').forEach(function (button) {
      button.hidden = false;
      button.addEventListener('click', function () {
        var target = document.getElementById(button.getAttribute('data-copy'));
        if (!target) return;
        var label = button.firstChild;
        navigator.clipboard.writeText(target.textContent || '').then(function () {
          label.textContent = 'Copied ';
          setTimeout(function () { label.textContent = 'Copy '; }, 2000);
        }, function () {
          label.textContent = 'Select and copy ';
        });
      });
    });
  }

  // A refusal or failure of the proxy as a plain sentence.
  function sentence(status, problem, retryAfter) {
    var detail = problem && typeof problem.detail === 'string' ? problem.detail : '';
    var code = problem && problem.code;
    if (status === 403 && code === 'blocked_destination') return 'Sextant will not connect to this endpoint: it resolves to a private, loopback or reserved address.';
    if (status === 403) return 'This request was refused: ' + (detail || 'the page may be open on another address than the service.');
    if (status === 429) return 'Too many tries in a short time. Wait ' + (retryAfter ? retryAfter + ' seconds' : 'a minute') + ' and try again.';
    if (status === 504) return 'The server did not answer in time. Try again later.';
    if (status === 502 && code === 'upstream_auth_required') return 'The server asks for credentials. Fill in the headers above and try again.';
    if (status === 502) return 'The server could not be used: ' + (detail || 'it answered with an error.');
    if (status === 400 || status === 404) return 'The request was not accepted: ' + (detail || 'check the values.');
    if (status === 0) return 'Sextant could not be reached. Check your connection and try again.';
    return 'Something went wrong (' + status + '). ' + detail;
  }

  function postJson(path, body) {
    return fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store',
    }).then(function (response) {
      return response.text().then(function (text) {
        var parsed = null;
        try { parsed = text ? JSON.parse(text) : null; } catch (e) { parsed = null; }
        return { status: response.status, body: parsed, retryAfter: response.headers.get('retry-after') };
      });
    }, function () {
      return { status: 0, body: null, retryAfter: null };
    });
  }

  // The header values typed for this endpoint, read now; empty ones are left out.
  function headersOf(panel) {
    var headers = {};
    var count = 0;
    panel.querySelectorAll('input[data-header]').forEach(function (input) {
      if (input.value !== '') { headers[input.getAttribute('data-header')] = input.value; count++; }
    });
    return count > 0 ? headers : undefined;
  }

  // One form field per top-level argument of the tool's input schema, named after it.
  function fieldFor(panelId, name, schema, required) {
    var id = panelId + '-arg-' + name.replace(/[^A-Za-z0-9_-]/g, '_');
    var field = el('div', { class: 'field' });
    var type = schema && typeof schema.type === 'string' ? schema.type : (schema && Array.isArray(schema.type) ? schema.type[0] : 'string');
    var label = el('label', { for: id }, name + (required ? ' (required)' : ''));
    field.appendChild(label);
    var input;
    if (schema && Array.isArray(schema.enum)) {
      input = el('select', { id: id, name: name, 'data-kind': 'enum' });
      if (!required) input.appendChild(el('option', { value: '' }, '(none)'));
      schema.enum.forEach(function (value, i) { input.appendChild(el('option', { value: String(i) }, JSON.stringify(value))); });
      input._values = schema.enum;
    } else if (type === 'boolean') {
      input = el('select', { id: id, name: name, 'data-kind': 'boolean' });
      if (!required) input.appendChild(el('option', { value: '' }, '(none)'));
      input.appendChild(el('option', { value: 'true' }, 'true'));
      input.appendChild(el('option', { value: 'false' }, 'false'));
    } else if (type === 'number' || type === 'integer') {
      input = el('input', { id: id, name: name, type: 'text', inputmode: 'decimal', 'data-kind': type, autocomplete: 'off' });
    } else if (type === 'object' || type === 'array') {
      input = el('textarea', { id: id, name: name, 'data-kind': 'json', spellcheck: 'false' });
      input.placeholder = type === 'array' ? '[ ]' : '{ }';
    } else {
      input = el('input', { id: id, name: name, type: 'text', 'data-kind': 'string', autocomplete: 'off' });
    }
    if (required) input.setAttribute('aria-required', 'true');
    field.appendChild(input);
    var hint = [type === 'object' || type === 'array' ? 'JSON ' + type : type];
    if (schema && typeof schema.description === 'string') hint.push(schema.description);
    field.appendChild(el('p', { class: 'hint' }, hint.join(' · ')));
    return field;
  }

  // The arguments as the form holds them; a field that cannot be read names itself.
  function argumentsOf(form) {
    var args = {};
    var controls = form.querySelectorAll('[data-kind]');
    for (var i = 0; i < controls.length; i++) {
      var control = controls[i];
      var kind = control.getAttribute('data-kind');
      var name = control.getAttribute('name');
      var raw = control.value;
      if (raw === '') continue;
      if (kind === 'enum') args[name] = control._values[Number(raw)];
      else if (kind === 'boolean') args[name] = raw === 'true';
      else if (kind === 'number' || kind === 'integer') {
        var number = Number(raw);
        if (!isFinite(number)) throw new Error(name + ' must be a number.');
        args[name] = number;
      } else if (kind === 'json') {
        try { args[name] = JSON.parse(raw); } catch (e) { throw new Error(name + ' must be valid JSON.'); }
      } else args[name] = raw;
    }
    return args;
  }

  // A tool result's content as text: text parts as they are, others described.
  function resultText(result) {
    var parts = (result && Array.isArray(result.content) ? result.content : []).map(function (part) {
      if (part && part.type === 'text' && typeof part.text === 'string') return part.text;
      return '[' + (part && part.type) + ' content] ' + JSON.stringify(part);
    });
    if (result && result.structuredContent && parts.length === 0) parts.push(JSON.stringify(result.structuredContent, null, 2));
    return parts.join('\n\n') || '(The tool returned no content.)';
  }

  function setUpTry(panel, index) {
    var button = panel.querySelector('.try-connect');
    var output = panel.querySelector('.try-output');
    var serverId = panel.getAttribute('data-server');
    var endpoint = panel.getAttribute('data-endpoint');
    var panelId = 'try-' + index;
    if (!button || !output) return;
    button.hidden = false;
    button.addEventListener('click', function () {
      button.disabled = true;
      output.textContent = '';
      output.appendChild(el('p', { class: 'muted' }, 'Connecting…'));
      postJson('/api/v1/proxy/connect', { serverId: serverId, endpoint: endpoint, headers: headersOf(panel) }).then(function (reply) {
        button.disabled = false;
        output.textContent = '';
        if (reply.status !== 200 || !reply.body) {
          output.appendChild(el('p', { class: 'try-error', role: 'alert' }, sentence(reply.status, reply.body, reply.retryAfter)));
          return;
        }
        showTools(reply.body);
      });
    });

    function showTools(connected) {
      var info = connected.serverInfo || {};
      output.appendChild(el('p', null, 'Connected to ' + (info.title || info.name || 'the server') + (info.version ? ' ' + info.version : '') + ' (protocol ' + connected.protocolVersion + '). ' + connected.tools.length + ' tools.'));
      if (connected.tools.length === 0) return;
      var picker = el('div', { class: 'try-tools' });
      var field = el('div', { class: 'field' });
      field.appendChild(el('label', { for: panelId + '-tool' }, 'Tool'));
      var select = el('select', { id: panelId + '-tool' });
      connected.tools.forEach(function (tool, i) { select.appendChild(el('option', { value: String(i) }, tool.name)); });
      field.appendChild(select);
      picker.appendChild(field);
      output.appendChild(picker);
      var holder = el('div');
      output.appendChild(holder);
      var render = function () { renderTool(holder, connected.tools[Number(select.value)]); };
      select.addEventListener('change', render);
      render();
    }

    function renderTool(holder, tool) {
      holder.textContent = '';
      var form = el('form', { class: 'try-form', novalidate: '' });
      form.appendChild(el('h4', null, tool.title || tool.name));
      if (typeof tool.description === 'string') form.appendChild(el('p', { class: 'muted' }, tool.description));
      var schema = tool.inputSchema && typeof tool.inputSchema === 'object' ? tool.inputSchema : {};
      var properties = schema.properties && typeof schema.properties === 'object' ? schema.properties : {};
      var required = Array.isArray(schema.required) ? schema.required : [];
      var names = Object.keys(properties);
      if (names.length === 0) form.appendChild(el('p', { class: 'muted' }, 'This tool takes no arguments.'));
      names.forEach(function (name) { form.appendChild(fieldFor(panelId, name, properties[name], required.indexOf(name) >= 0)); });
      var call = el('button', { type: 'submit' }, 'Call');
      form.appendChild(call);
      var result = el('div', { class: 'try-output', 'aria-live': 'polite' });
      form.appendChild(result);
      form.addEventListener('submit', function (event) {
        event.preventDefault();
        result.textContent = '';
        var args;
        try { args = argumentsOf(form); } catch (error) {
          result.appendChild(el('p', { class: 'try-error', role: 'alert' }, error.message));
          return;
        }
        call.disabled = true;
        result.appendChild(el('p', { class: 'muted' }, 'Calling ' + tool.name + '…'));
        postJson('/api/v1/proxy/invoke', { serverId: serverId, endpoint: endpoint, tool: tool.name, arguments: args, headers: headersOf(panel) }).then(function (reply) {
          call.disabled = false;
          result.textContent = '';
          if (reply.status !== 200 || !reply.body) {
            result.appendChild(el('p', { class: 'try-error', role: 'alert' }, sentence(reply.status, reply.body, reply.retryAfter)));
            return;
          }
          var outcome = reply.body.result || {};
          result.appendChild(el('p', null, outcome.isError ? 'The tool reported an error:' : 'Result:'));
          result.appendChild(el('pre', { class: 'code try-result' }, resultText(outcome)));
        });
      });
      holder.appendChild(form);
    }
  }

  // Asks `url` through the API every `every` ms (`failed` ms after a failure), and reloads the page once `finished(answer)` says so.
  function reloadWhenFinished(url, headers, finished, every, failed, first) {
    var poll = function () {
      fetch(url, { headers: headers, cache: 'no-store' })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (answer) {
          if (answer && finished(answer)) window.location.reload();
          else setTimeout(poll, answer ? every : failed);
        }, function () { setTimeout(poll, failed); });
    };
    setTimeout(poll, first);
  }

  // A list of domains whose assessments still run: reload once all have finished.
  function setUpBatch() {
    var marker = document.querySelector('[data-batch][data-finished="no"]');
    if (!marker) return;
    reloadWhenFinished('/api/v1/assessments/batches/' + encodeURIComponent(marker.getAttribute('data-batch')), { accept: 'application/json' },
      function (batch) { return batch.finished; }, 2000, 10000, 1000);
  }

  // An assessment still queued or running: wait for it through the API (Prefer: wait), then reload.
  function setUpAssessment() {
    var marker = document.querySelector('[data-assessment][data-finished="no"]');
    if (!marker) return;
    reloadWhenFinished('/api/v1/assessments/' + encodeURIComponent(marker.getAttribute('data-assessment')), { accept: 'application/json', prefer: 'wait=15' },
      function (record) { return record.status !== 'queued' && record.status !== 'running'; }, 500, 5000, 0);
  }

  // A CSV file chosen on the list form is read here and put in the list's text box, which is what the form sends.
  function setUpCsv() {
    document.querySelectorAll('[data-csv-only]').forEach(function (field) {
      var input = field.querySelector('input[type=file][data-fills]');
      var target = input && document.getElementById(input.getAttribute('data-fills'));
      if (!input || !target || typeof FileReader === 'undefined') return;
      field.hidden = false;
      input.addEventListener('change', function () {
        var file = input.files && input.files[0];
        if (!file) return;
        var reader = new FileReader();
        reader.onload = function () { target.value = String(reader.result || ''); target.focus(); };
        reader.readAsText(file);
      });
    });
  }

  function start() {
    setUpCopy();
    document.querySelectorAll('[data-try]').forEach(setUpTry);
    setUpAssessment();
    setUpBatch();
    setUpCsv();
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
