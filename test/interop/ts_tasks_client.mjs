#!/usr/bin/env node
// Interop test: the tasks of 2025-11-25 (basic/utilities/tasks) between the
// official TypeScript SDK's client (@modelcontextprotocol/sdk, pinned in
// package.json, its experimental tasks API) and our conformance-server (the
// task tools of examples/conformance_fixtures_tasks.cpp) over Streamable HTTP.
//
//   node ts_tasks_client.mjs <server-command> [args...]   # prints its URL first, e.g. conformance-server --port 0
//
// Checks: the tasks capability and each tool's execution.taskSupport; a
// task-augmented call answered with a CreateTaskResult; tasks/get and
// tasks/list see it; tasks/result brings its result; a task that asks for
// a confirmation sends its elicitation (tagged with the task) on the
// tasks/result stream to the client's handler and ends with the answer;
// tasks/cancel cancels a long task and refuses a second cancel with -32602;
// a required tool called without a task and a forbidden one with a task are
// refused with -32601. Output: "ok - ..." / "not ok - ..." per check; exit 0
// iff nothing failed. Every wait is bounded; the server is killed on exit.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
    CallToolResultSchema,
    CreateTaskResultSchema,
    ElicitRequestSchema
} from '@modelcontextprotocol/sdk/types.js';
import { check, diag, finish, notOk, short, startHarness, startHttpServer, withTimeout } from './lib.mjs';

const USAGE = 'usage: node ts_tasks_client.mjs <server-command> [args...]';
const RO = { timeout: 10_000 };
const RELATED = 'io.modelcontextprotocol/related-task';

const { command, args } = startHarness({ usage: USAGE, scriptTimeoutMs: 90_000 });

async function refusedWith(promise) {
    try {
        await promise;
        return 'no error';
    } catch (e) {
        return e?.code;
    }
}

async function main() {
    const srv = await startHttpServer(command, args);
    diag(`server: ${srv.url}`);
    const elicited = [];
    const client = new Client(
        { name: 'caduceus-interop-ts-tasks', version: '0.1.0' },
        { capabilities: { elicitation: { form: {} } } }
    );
    client.setRequestHandler(ElicitRequestSchema, async request => {
        elicited.push(request.params);
        return { action: 'accept', content: { confirm: true } };
    });
    await withTimeout(client.connect(new StreamableHTTPClientTransport(new URL(srv.url))), 10_000, 'connect');
    check(client.getServerVersion() !== undefined, 'connected (initialize, 2025-11-25)');
    const caps = client.getServerCapabilities() ?? {};
    check(caps.tasks?.requests?.tools?.call !== undefined, 'the server declares tasks.requests.tools.call', short(caps));
    check(caps.tasks?.list !== undefined && caps.tasks?.cancel !== undefined, 'the server declares tasks.list and tasks.cancel');

    const { tools } = await client.listTools(undefined, RO);
    const support = name => tools.find(t => t.name === name)?.execution?.taskSupport;
    check(support('slow_compute') === 'optional', 'slow_compute: execution.taskSupport optional', short(support('slow_compute')));
    check(support('failing_job') === 'required', 'failing_job: execution.taskSupport required');
    check(support('greet') === undefined, 'greet: no execution (forbidden by default)');

    // A task-augmented call, polled, listed and its result fetched.
    const created = await client.request(
        { method: 'tools/call', params: { name: 'slow_compute', arguments: { seconds: 0.3, label: 'ts' }, task: { ttl: 60_000 } } },
        CreateTaskResultSchema,
        RO
    );
    const taskId = created.task?.taskId;
    check(typeof taskId === 'string' && taskId.length >= 16, 'CreateTaskResult carries a task id', short(created));
    check(created.task?.status === 'working', 'the task starts working');
    check(created.task?.ttl === 60_000, 'the ttl asked for is kept', short(created.task));
    check(typeof created.task?.pollInterval === 'number', 'a pollInterval is suggested');
    const got = await client.experimental.tasks.getTask(taskId, RO);
    check(got.taskId === taskId && ['working', 'completed'].includes(got.status), 'tasks/get finds it', short(got));
    const listed = await client.experimental.tasks.listTasks(undefined, RO);
    check(listed.tasks.some(t => t.taskId === taskId), 'tasks/list lists it', short(listed));
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, RO);
    check(/Computed ts/.test(result.content?.[0]?.text ?? ''), 'tasks/result waits for and returns the tool result', short(result));
    check(result._meta?.[RELATED]?.taskId === taskId, 'the result names its task (related-task)', short(result._meta));
    const done = await client.experimental.tasks.getTask(taskId, RO);
    check(done.status === 'completed', 'then tasks/get says completed', short(done));

    // A task that asks: its elicitation reaches the client while tasks/result waits.
    const asking = await client.request(
        { method: 'tools/call', params: { name: 'confirm_delete', arguments: { filename: 'a.txt' }, task: {} } },
        CreateTaskResultSchema,
        RO
    );
    const askingId = asking.task?.taskId;
    const confirmed = await client.experimental.tasks.getTaskResult(askingId, CallToolResultSchema, RO);
    check(confirmed.content?.[0]?.text === 'Deleted a.txt', 'the task got the confirmation and finished', short(confirmed));
    check(elicited.length === 1, 'one elicitation reached the client', short(elicited));
    check(elicited[0]?._meta?.[RELATED]?.taskId === askingId, 'the elicitation names its task (related-task)', short(elicited[0]));

    // Cancellation.
    const long = await client.request(
        { method: 'tools/call', params: { name: 'slow_compute', arguments: { seconds: 60 }, task: {} } },
        CreateTaskResultSchema,
        RO
    );
    const cancelled = await client.experimental.tasks.cancelTask(long.task.taskId, RO);
    check(cancelled.status === 'cancelled', 'tasks/cancel answers with the cancelled task', short(cancelled));
    const again = await refusedWith(client.experimental.tasks.cancelTask(long.task.taskId, RO));
    check(again === -32602, 'cancelling a cancelled task is refused with -32602', short(again));

    // Tool-level negotiation.
    const required = await refusedWith(client.request({ method: 'tools/call', params: { name: 'failing_job', arguments: {} } }, CallToolResultSchema, RO));
    check(required === -32601, 'a required tool called without a task: -32601', short(required));
    const forbidden = await refusedWith(
        client.request({ method: 'tools/call', params: { name: 'greet', arguments: { name: 'x' }, task: {} } }, CreateTaskResultSchema, RO)
    );
    check(forbidden === -32601, 'a forbidden tool called as a task: -32601', short(forbidden));

    // A required tool as a task ends with its tool error (2025-11-25: failed, result kept).
    const failing = await client.request(
        { method: 'tools/call', params: { name: 'failing_job', arguments: {}, task: {} } },
        CreateTaskResultSchema,
        RO
    );
    const failed = await client.experimental.tasks.getTaskResult(failing.task.taskId, CallToolResultSchema, RO);
    check(failed.isError === true, 'tasks/result of a tool error is the tool result with isError', short(failed));
    const failedTask = await client.experimental.tasks.getTask(failing.task.taskId, RO);
    check(failedTask.status === 'failed', 'a tool error is a failed task in 2025-11-25', short(failedTask));

    await client.close();
}

main()
    .catch(e => notOk('no unexpected error', e?.stack ?? String(e)))
    .finally(() => finish());
