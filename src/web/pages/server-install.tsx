/** Install instructions on a server page: for every client, the config file, the JSON to merge, the command and the deep link, with copy buttons. */
import type { InstallInstructions } from '../../types.js';
import { CopyButton, prettyJson } from '../components.js';
import { installLinkHref } from '../security.js';

/** Argv tokens as one line a POSIX shell reads back as the same tokens. */
export function shellLine(argv: readonly string[]): string {
  return argv.map((token) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(token) ? token : `'${token.replace(/'/g, `'\\''`)}'`)).join(' ');
}

const OS: Readonly<Record<string, string>> = { macos: 'macOS', windows: 'Windows', linux: 'Linux', any: 'Any system' };

export function InstallSection({ install }: { readonly install: InstallInstructions }) {
  return (
    <section id="install" aria-labelledby="install-title" class="panel">
      <h2 id="install-title">Install</h2>
      <p class="muted">Secrets appear as placeholders: put your own values in their place.</p>
      <div class="install-grid">
        {install.clients.map((client) => <ClientInstall client={client} />)}
      </div>
    </section>
  );
}

/** One client's way to add the server. */
function ClientInstall({ client }: { readonly client: InstallInstructions['clients'][number] }) {
  const slug = client.client;
  const link = installLinkHref(client.deepLink);
  return (
    <article class="install" id={`install-${slug}`} aria-labelledby={`install-title-${slug}`}>
      <h3 id={`install-title-${slug}`}>{client.clientName}</h3>
      {!client.supported ? (
        <p class="notice">Not supported: {client.reason ?? 'this client cannot run this server.'}</p>
      ) : (
        <>
          {client.reason ? <p class="muted">{client.reason}</p> : null}
          {link ? (
            <p>
              <a class="button" href={link}>Add to {client.clientName}</a>
            </p>
          ) : null}
          {client.command ? (
            <div class="snippet">
              <div class="snippet-head">
                <p class="snippet-label">Run</p>
                <CopyButton target={`command-${slug}`} label={`${client.clientName} command`} />
              </div>
              <pre class="code" tabIndex={0} id={`command-${slug}`}>{shellLine(client.command)}</pre>
            </div>
          ) : null}
          {client.config ? (
            <div class="snippet">
              <div class="snippet-head">
                <p class="snippet-label">
                  {client.command ? 'Or merge' : 'Merge'} into {client.configFiles.length === 1 ? <code>{client.configFiles[0]?.path}</code> : 'its configuration file'}
                </p>
                <CopyButton target={`config-${slug}`} label={`${client.clientName} configuration`} />
              </div>
              <pre class="code" tabIndex={0} id={`config-${slug}`}>{prettyJson(client.config)}</pre>
            </div>
          ) : null}
          {client.configFiles.length > 1 ? (
            <ul class="paths" aria-label={`${client.clientName} configuration files`}>
              {client.configFiles.map((file) => (
                <li>{OS[file.os] ?? file.os}, {file.scope === 'user' ? 'for you' : 'in a project'}: <code>{file.path}</code></li>
              ))}
            </ul>
          ) : null}
          {client.inputs.length > 0 ? (
            <p class="muted">
              You supply: {client.inputs.map((input, i) => (
                <>
                  {i > 0 ? ', ' : ''}
                  <code>{input.name}</code>
                  {input.isRequired ? '' : ' (optional)'}
                </>
              ))}
            </p>
          ) : null}
        </>
      )}
    </article>
  );
}
