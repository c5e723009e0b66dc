/** The quality rules of src/catalog/quality.ts, one rule at a time, and what ingest and sorting make of them. */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { parse } from 'yaml';
import { browseNameOf } from '../../src/catalog/browse-name.js';
import {
  SERVER_QUALITY_FLAGS, SERVER_QUALITY_RULES, TOOL_QUALITY_FLAGS, TOOL_QUALITY_RULES, copiesAmong, nameWords, serverQualityFlags, toolQualityFlags,
  type ServerSubject,
} from '../../src/catalog/quality.js';

const server = (name: string, description = 'Reads the weather for a city.', title: string | null = null, siblings?: readonly string[]): ServerSubject => ({
  name, title, description, ...(siblings ? { siblings: new Set([name, ...siblings].map((n) => n.toLowerCase())) } : {}),
});

/** For each rule: records it flags, and records it leaves alone (hard cases among them). */
const CASES: Record<string, { readonly flags: readonly ServerSubject[]; readonly spares: readonly ServerSubject[] }> = {
  'test subdomain': {
    flags: [server('live.alpic.staging/email-server'), server('live.alpic.staging.mcp-server-6283dc54/mcp-server'), server('ai.alpic.test/test-mcp-server')],
    spares: [server('io.github.test/weather'), server('io.github.saucelabs-sample-test-frameworks/sauce-api-mcp'), server('com.staging/weather'), server('test-weather')],
  },
  'test name': {
    flags: [
      server('ai.smithery/arjunkmrm-test0'), server('ai.smithery/BigVik193-reddit-ads-mcp-test'), server('io.github.someone/mcp-test'),
      server('io.github.someone/testing_repo'), server('ai.smithery/arjunkmrm-py-test-0'), server('uber-eats-automation', 'Orders food.', 'Test Repo MCP'),
    ],
    spares: [
      server('io.github.goldbergyoni/test-coverage-mcp'), server('internet-speed-test'), server('tox-testing', 'Runs tox.', 'Tox Testing'),
      server('io.github.kubeshop/testkube-mcp'), server('test-mcp', 'git-spice docs.', 'Git Spice Help MCP'), server('k6-load-testing'),
      server('demo', 'The reference server.', 'Everything (test server)'),
    ],
  },
  'test text': {
    flags: [
      server('ai.alpic.test/x', 'Alpic Test MCP Server - great server!'), server('io.github.a/b', 'A simple MCP server with an echo tool for testing purposes'),
      server('ai.shawndurrani/mcp-merchant', 'Search-only commerce MCP server backed by Stripe (test)'), server('io.github.a/c', 'Just a test.'),
    ],
    spares: [
      server('io.github.a/d', 'Reference test server that exercises every MCP feature.'), server('io.github.a/e', 'Web automation and testing server using SHAFT Engine'),
      server('mock-data', 'Mock data for testing and development purposes.'), server('io.testiny/testiny-mcp', 'Test cases and test runs.', 'Testiny Test Management'),
    ],
  },
  'template name': {
    flags: [
      server('live.alpic.staging.x/mcp-server-template-nodejs'), server('io.github.kevincogan/demo-mcp-server'), server('io.github.fengcl/mcp-sse-demo-02'),
      server('io.github.cyanheads/mcp-ts-template'), server('ai.smithery/callmybot-hello-mcp-server'), server('mcp-server-demo', 'Three servers.', 'MCP Server Demo'),
    ],
    spares: [
      server('io.github.estruyf/vscode-demo-time'), server('prompt-template-server-(go)'), server('mcp-starter', 'A philosophical mentor.', 'Stern MCP'),
      server('mcp-clever-demo', 'Deploys to Clever Cloud.', 'Clever MCP Demo'), server('ai.smithery/demomagic-duckchain-mcp'),
    ],
  },
  'template text': {
    flags: [
      server('io.github.a/b', 'A non functional MCP server (yet)', 'Template!'), server('io.github.a/c', 'A sample MCP server using the MCP C# SDK.'),
      server('io.github.a/d', 'Sample .NET MCP Server'), server('io.github.a/e', 'Demo server entry for local testing'),
      server('io.github.a/f', 'Primarily to be used as a template repository for developing MCP servers'), server('io.github.a/g', 'An MCP server that created for demo'),
      server('fastapi', 'A sample FastAPI project that implements the Model Context Protocol'),
    ],
    spares: [
      server('io.github.paiml/pforge', 'Zero-boilerplate MCP server framework'), server('postmark', 'Sends email with template support.'),
      server('trello', 'A Trello server. Built on the Generic MCP Server Template.'), server('context7', 'Documentation and code examples for any library.'),
      server('forge', 'Generates powerful server templates.'), server('demo-time', 'Helps build presentations and demos.'),
    ],
  },
  'greeting template': {
    flags: [
      server('ai.smithery/arjunkmrm-ahoy', 'Send friendly, personalized greetings by name. Switch to a playful pirate voice.'),
      server('ai.smithery/kodey-ai-mapwise-mcp', 'Send friendly, personalized greetings on demand.'),
      server('ai.smithery/x-y', 'Manage workflows. Greet people and learn the origin of "Hello, World".'),
      server('biodiversity', 'A simple interface for adding numbers and generating personalized greetings.'),
    ],
    spares: [server('sms', 'Send SMS and MMS messages, with prompts for greetings.'), server('cards', 'Create greeting cards and print them.')],
  },
  'not functional': {
    flags: [server('io.github.a/b', 'A non functional MCP server (yet)'), server('io.github.a/c', 'Server not ready (yet!)'), server('io.github.a/d', 'Still work in progress')],
    spares: [server('req', 'Tracks functional and non-functional requirements.'), server('yutu', 'A fully functional MCP server and CLI for YouTube'), server('big', 'Reads calendars. Work in progress: more tools are coming to this server soon.')],
  },
  'placeholder text': {
    flags: [
      server('io.github.a/b', 'Description of my MCP server'), server('io.github.a/c', 'TODO'), server('io.github.a/d', 'Lorem ipsum dolor sit amet.'),
      server('io.github.a/e', 'A simple MCP server.'), server('io.github.mickymultani/crypto-bytes', 'Crypto Bytes MCP Server'), server('io.github.a/f', ''),
    ],
    spares: [
      server('mcp/notion', '', 'Notion'), server('com.vercel/vercel-mcp', 'An MCP server for Vercel'), server('com.jotform/mcp', 'Jotform MCP'),
      server('todo', 'A todo list in Notion.'), server('mcp/curl', 'Standard curl tool.'), server('mcp/clickhouse', 'Official ClickHouse MCP Server', 'Official ClickHouse'),
    ],
  },
  'placeholder title': {
    flags: [server('io.github.a/b', 'Sends mail.', 'My MCP Server!'), server('io.github.a/c', 'Sends mail.', 'My MCP Serv')],
    spares: [server('io.github.a/d', 'Sends mail.', 'My Mac MCP'), server('io.github.a/e', 'Sends mail.', 'MCP Server Spring Java')],
  },
  copy: {
    flags: [
      server('ai.smithery/cuongpo-coti-mcp-1', 'x', null, ['ai.smithery/cuongpo-coti-mcp']),
      server('ai.smithery/arjunkmrm-ahoy2', 'x', null, ['ai.smithery/arjunkmrm-ahoy']),
      server('ai.smithery/arjunkmrm-local02', 'x', null, ['ai.smithery/arjunkmrm-time']),
      server('ai.smithery/arjunkmrm-test01', 'x', null, ['ai.smithery/arjunkmrm-time']),
      server('@toolsdk-remote/ai-smithery-arjunkmrm-local001', 'x', null, ['@toolsdk-remote/ai-smithery-arjunkmrm-time']),
      server('io.github.acme/weather-dev', 'x', null, ['io.github.acme/weather']),
    ],
    spares: [
      server('ai.smithery/cuongpo-coti-mcp-1', 'x'), server('io.github.acme/weather-v2', 'x', null, ['io.github.acme/weather']),
      server('dingtalk-v2', 'x', null, ['dingtalk']), server('formula-1', 'x', null, ['formula']),
      server('io.github.umbraco/umbraco-cms-mcp-dev', 'x', null, ['io.github.umbraco/umbraco-cms-mcp-base']),
      server('ai.smithery/arjunkmrm-time', 'x', null, ['ai.smithery/arjunkmrm-local02']),
    ],
  },
};

describe('quality rules', () => {
  it('are stated once: the contract lists exactly the flags, in the rules\' order', () => {
    const contract = parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8'));
    expect(contract.components.schemas.ServerQualityFlag.enum).to.deep.equal([...SERVER_QUALITY_FLAGS]);
    expect(contract.components.schemas.ToolQualityFlag.enum).to.deep.equal([...TOOL_QUALITY_FLAGS]);
    expect(new Set(SERVER_QUALITY_RULES.map((r) => r.flag))).to.deep.equal(new Set(SERVER_QUALITY_FLAGS));
  });

  it('each server rule has cases here, and each says what it does', () => {
    expect(SERVER_QUALITY_RULES.map((r) => r.name)).to.have.members(Object.keys(CASES));
    for (const rule of SERVER_QUALITY_RULES) expect(rule.rule, rule.name).to.have.length.greaterThan(40);
  });

  for (const rule of SERVER_QUALITY_RULES) {
    describe(`${rule.name} (${rule.flag})`, () => {
      for (const subject of CASES[rule.name]?.flags ?? []) {
        it(`flags ${subject.name}${subject.title ? ` titled "${subject.title}"` : ''}: "${subject.description}"`, () => {
          expect(rule.test(subject)).to.equal(true);
        });
      }
      for (const subject of CASES[rule.name]?.spares ?? []) {
        it(`spares ${subject.name}${subject.title ? ` titled "${subject.title}"` : ''}: "${subject.description}"`, () => {
          expect(rule.test(subject)).to.equal(false);
        });
      }
    });
  }

  it('raises each flag once, in the contract\'s order; a real server raises none', () => {
    expect(serverQualityFlags(server('live.alpic.staging.a/mcp-server-template', 'A non functional MCP server (yet)', 'My MCP Server!'))).to.deep.equal(['test', 'template', 'placeholder']);
    expect(serverQualityFlags(server('io.github.github/github-mcp-server', "GitHub's official MCP server."))).to.deep.equal([]);
  });

  it('reads a name without its namespace or the handle a host puts first', () => {
    expect(nameWords('ai.smithery/BigVik193-reddit-ads-mcp-test')).to.deep.equal(['reddit', 'ads', 'mcp', 'test']);
    expect(nameWords('com.joelverhagen.mcp/Knapcode.SampleMcpServer')).to.deep.equal(['knapcode', 'sample', 'mcp', 'server']);
    expect(nameWords('@toolsdk-remote/ai-smithery-someone-weather-test')).to.deep.equal(['weather', 'test']);
  });

  it('finds the copies among a catalog\'s names, by namespace, never among bare names', () => {
    const names = ['ai.smithery/arjunkmrm-time', 'ai.smithery/arjunkmrm-local02', 'ai.smithery/cuongpo-coti-mcp', 'ai.smithery/cuongpo-coti-mcp-1', 'io.github.other/coti-mcp-1', 'slack', 'slack-2'];
    expect([...copiesAmong(names)].sort()).to.deep.equal(['ai.smithery/arjunkmrm-local02', 'ai.smithery/cuongpo-coti-mcp-1']);
  });
});

describe('tool quality rules', () => {
  const cases: Array<[string, string[]]> = [
    ['_________available_mcp_services_for_easy_copy_________', ['not_a_name']],
    ['', ['not_a_name']],
    ['---', ['not_a_name']],
    ['get - weather', ['not_a_name']],
    ['a'.repeat(65), ['name_too_long']],
    ['a'.repeat(64), []],
    ['get_weather', []],
    ['_private_tool', []],
    ['nasa/apod', []],
    ['Summarize Detection', []],
  ];
  for (const [name, flags] of cases) {
    it(`${flags.length === 0 ? 'leaves' : `flags ${flags.join(', ')} on`} "${name.length > 40 ? `${name.slice(0, 20)}…(${name.length})` : name}"`, () => {
      expect(toolQualityFlags(name)).to.deep.equal(flags);
    });
  }

  it('each tool rule flags something of the cases above', () => {
    for (const rule of TOOL_QUALITY_RULES) expect(cases.some(([name]) => rule.test(name)), rule.name).to.equal(true);
  });
});

describe('browse names', () => {
  const cases: Array<[string, string]> = [
    ['_________available_mcp_services_for_easy_copy_________', 'available_mcp_services_for_easy_copy_________'],
    ['@cablate/mcp-google-calendar', 'cablate/mcp-google-calendar'],
    ['"Quoted" Server', 'quoted" server'],
    ['Élan', 'élan'],
    ['42 things', '42 things'],
    ['___', '___'],
  ];
  for (const [name, browse] of cases) {
    it(`sorts "${name}" as "${browse}"`, () => {
      expect(browseNameOf(name)).to.equal(browse);
    });
  }
});
