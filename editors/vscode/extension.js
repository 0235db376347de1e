// VS Code client for `attnc lsp`: starts the server for .attn files.
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration('attn').get('server.path') || 'attnc';
  const server = { command, args: ['lsp'] };
  client = new LanguageClient('attn', 'attnc', { run: server, debug: server }, {
    documentSelector: [{ scheme: 'file', language: 'attn' }],
  });
  client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
