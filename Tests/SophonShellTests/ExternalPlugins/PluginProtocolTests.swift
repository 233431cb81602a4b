import Foundation
import SophonCore
import SophonGemini
import Testing

@testable import SophonShell

/// The protocol's message reading: handshakes, reply lines and what a reply does to the
/// session (docs/plugin-protocol.md, sections 3, 4 and 6).
@Suite struct PluginProtocolTests {
    static func json(_ text: String) -> JSONValue { try! JSONValue(parsing: text) }

    @Test func aHandshakeReplyBecomesAManifest() throws {
        let reply = Self.json(
            """
            {"type":"hello","id":1,"protocol":1,"name":"csv","version":"1.0.0","commands":[
              {"name":"csv","usage":"csv [COLUMN...]","help":"print as CSV\\nmore","completions":["a"]},
              {"name":"from-csv"}]}
            """)
        let manifest = try PluginManifest(reply: reply, plugin: "csv")
        #expect(
            manifest
                == PluginManifest(
                    name: "csv", version: "1.0.0", protocolVersion: 1,
                    commands: [
                        .init(
                            name: "csv", usage: "csv [COLUMN...]", summary: "print as CSV",
                            help: "print as CSV\nmore", completions: ["a"]),
                        .init(name: "from-csv", usage: "from-csv", summary: "", help: "", completions: []),
                    ]))
    }

    @Test(arguments: [
        (#"{"name":"x","commands":[]}"#, "plugin 'p' sent an invalid handshake: missing \"protocol\""),
        (
            #"{"protocol":2,"name":"x","commands":[]}"#,
            "plugin 'p' speaks protocol version 2; sophon speaks version 1"
        ),
        (
            #"{"protocol":"1","name":"x","commands":[]}"#,
            "plugin 'p' speaks protocol version \"1\"; sophon speaks version 1"
        ),
        (
            #"{"protocol":1,"name":"a b","commands":[]}"#,
            "plugin 'p' sent an invalid handshake: \"name\" must be a string of letters, digits, '-' and '_'"
        ),
        (#"{"protocol":1,"name":"x"}"#, "plugin 'p' sent an invalid handshake: missing \"commands\" array"),
        (
            #"{"protocol":1,"name":"x","commands":[{"name":"two words"}]}"#,
            "plugin 'p' sent an invalid handshake: commands[0] needs a \"name\" that is one word"
        ),
        (
            #"{"protocol":1,"name":"x","commands":[{"name":"c","usage":3}]}"#,
            "plugin 'p' sent an invalid handshake: commands[0].usage must be a string"
        ),
        (
            #"{"protocol":1,"name":"x","commands":[{"name":"c","completions":[1]}]}"#,
            "plugin 'p' sent an invalid handshake: commands[0].completions must be an array of strings"
        ),
    ])
    func aBadHandshakeIsRefused(reply: String, message: String) {
        #expect(throws: PluginFault.self) { try PluginManifest(reply: Self.json(reply), plugin: "p") }
        do {
            _ = try PluginManifest(reply: Self.json(reply), plugin: "p")
        } catch {
            #expect(error.message == message)
        }
    }

    @Test(arguments: [
        ("hello there", "plugin 'p' wrote a line that is not JSON: 'hello there'"),
        ("[1,2]", "plugin 'p' wrote a line that is not JSON: '[1,2]'"),
        (#"{"type":"result"}"#, "plugin 'p' sent an invalid message: missing \"id\""),
        (
            #"{"id":"2","type":"result"}"#,
            "plugin 'p' sent an invalid message: \"id\" must be an integer, got \"2\""
        ),
        (#"{"id":2}"#, "plugin 'p' sent an invalid message: missing \"type\" in the reply to request 2"),
        (
            #"{"id":2,"type":"progress"}"#,
            "plugin 'p' sent an invalid message: unknown message type 'progress'"
        ),
        (
            String(repeating: "x", count: 90),
            "plugin 'p' wrote a line that is not JSON: '" + String(repeating: "x", count: 80) + "...'"
        ),
        ("tab\there", "plugin 'p' wrote a line that is not JSON: 'tab\\there'"),
    ])
    func aBadLineIsAFault(line: String, message: String) {
        do {
            _ = try PluginProtocol.reply(from: line, plugin: "p")
            Issue.record("accepted \(line)")
        } catch {
            #expect(error.message == message)
        }
    }

    @Test func aGoodLineIsAReply() throws {
        let reply = try PluginProtocol.reply(from: #"{"type":"result","id":7,"value":1}"#, plugin: "p")
        #expect(reply.id == 7)
        #expect(reply.type == "result")
        #expect(reply.message["value"] == .integer(1))
    }

    @Test(arguments: [
        (#"{"value":[1,2]}"#, CommandResult.value(.array([.integer(1), .integer(2)])), "[1,2]"),
        (#"{"output":"a,b\n1,2\n"}"#, CommandResult.text("a,b\n1,2"), "\"old\""),
        (
            #"{"output":"text","value":{"k":true}}"#,
            CommandResult.report("text", data: .object([JSONMember("k", .bool(true))])), #"{"k":true}"#
        ),
        (#"{"output":"","value":3}"#, CommandResult.value(.integer(3)), "3"),
        (#"{}"#, CommandResult.none, "\"old\""),
    ])
    func aResultPrintsAndSetsLast(fields: String, result: CommandResult, last: String) throws {
        let session = ShellSession()
        session.withState { $0.last = .string("old") }
        var members: [JSONMember] = [JSONMember("type", .string("result")), JSONMember("id", .integer(2))]
        if case .object(let extra) = Self.json(fields) { members += extra }
        let reply = PluginProtocol.Reply(id: 2, type: "result", message: .object(members))
        let applier = PluginReplyApplier(plugin: "p", command: "cmd")
        let shown = try applier.apply(reply, to: session)
        #expect(shown == result)
        // `.value` results become `$last` in the runtime, the others here.
        if case .value(let value) = shown { session.withState { $0.last = value } }
        #expect(session.variable("last")?.compactText == last)
    }

    @Test func variablesAreSetAndBadNamesRefused() throws {
        let session = ShellSession()
        let applier = PluginReplyApplier(plugin: "p", command: "cmd")
        let good = PluginProtocol.Reply(
            id: 2, type: "result", message: Self.json(#"{"variables":{"rows":3,"_x":"y"}}"#))
        #expect(try applier.apply(good, to: session) == .none)
        #expect(session.variable("rows") == .integer(3))
        #expect(session.variable("_x") == .string("y"))
        for name in ["last", "1a", "a-b", ""] {
            let bad = PluginProtocol.Reply(
                id: 2, type: "result",
                message: .object([JSONMember("variables", .object([JSONMember(name, .integer(1))]))]))
            do {
                _ = try applier.apply(bad, to: session)
                Issue.record("accepted variable \(name)")
            } catch {
                #expect(
                    error.message
                        == "plugin 'p' sent an invalid message: cannot set variable '\(name)' (reply to 'cmd')"
                )
            }
        }
    }

    @Test func anErrorReplyFailsTheCommand() {
        let applier = PluginReplyApplier(plugin: "p", command: "cmd")
        let reply = PluginProtocol.Reply(id: 2, type: "error", message: Self.json(#"{"message":"no rows"}"#))
        do {
            _ = try applier.apply(reply, to: ShellSession())
            Issue.record("no error")
        } catch {
            #expect(error.failure == CommandFailure(kind: .pluginError, message: "cmd: no rows"))
        }
    }

    /// A reply to a `tool` request carries `result` or `error` (PRODUCT.md §6): an `error`
    /// reply's `message` (or `error`), and a `result` reply with `error` and no `result`, are the
    /// tool's error; anything else is its result.
    @Test(arguments: [
        ("result", #"{"result":{"ok":true}}"#, "ok {\"ok\":true}"),
        ("result", #"{"result":42}"#, "ok 42"),
        ("result", #"{}"#, "ok null"),
        ("result", #"{"result":1,"error":"ignored"}"#, "ok 1"),
        ("result", #"{"result":null,"error":"the disk is full"}"#, "error the disk is full"),
        ("result", #"{"error":"the disk is full"}"#, "error the disk is full"),
        ("result", #"{"error":{"message":"no such city"}}"#, "error no such city"),
        ("result", #"{"error":{"code":7}}"#, "error {\"code\":7}"),
        ("error", #"{"message":"bad one"}"#, "error bad one"),
        ("error", #"{"error":"bad three"}"#, "error bad three"),
        ("error", #"{"message":"first","error":"second"}"#, "error first"),
        ("error", #"{}"#, "error the tool failed"),
    ])
    func aToolReplyCarriesResultOrError(type: String, message: String, expected: String) {
        let outcome: String
        switch ExternalPluginHost.toolOutcome(type: type, message: Self.json(message)) {
        case .success(let value): outcome = "ok " + value.compactText
        case .failure(let error): outcome = "error " + error.message
        }
        #expect(outcome == expected)
    }

    @Test func theSessionViewCarriesModelSchemaLastAndSortedVariables() {
        let session = ShellSession()
        session.withGeminiState { $0.settings.model = "gemini-2.5-flash" }
        session.withState { state in
            state.last = .array([.integer(1)])
            state.variables = ["b": .integer(2), "a": .string("x")]
        }
        session.withGeminiState { $0.schema = .object(properties: ["title": .string()], required: ["title"]) }
        #expect(
            PluginProtocol.sessionView(session).compactText
                == #"{"model":"gemini-2.5-flash","schema":{"type":"OBJECT","properties":{"title":{"type":"STRING"}},"#
                + #""required":["title"],"propertyOrdering":["title"]},"last":[1],"variables":{"a":"x","b":2}}"#
        )
        // A new session as `sophon` makes it: the Gemini plugin's defaults applied.
        let fresh = ShellSession()
        PluginRegistry.standard().configure(fresh)
        #expect(
            PluginProtocol.sessionView(fresh).compactText == #"{"model":"gemini-3.8-flash","variables":{}}"#)
        // Without the Gemini plugin the view has no model: the shell's core knows none.
        #expect(PluginProtocol.sessionView(ShellSession()).compactText == #"{"variables":{}}"#)
    }

    @Test func messagesTheShellSends() {
        #expect(
            PluginProtocol.hello(id: 1).compactText
                == #"{"type":"hello","id":1,"protocols":[1],"shell":"sophon 0.1.0"}"#)
        #expect(
            PluginProtocol.call(id: 2, command: "c", arguments: ["a b"], session: .object([])).compactText
                == #"{"type":"call","id":2,"command":"c","args":["a b"],"session":{}}"#)
        #expect(PluginProtocol.cancel(id: 2).compactText == #"{"type":"cancel","id":2}"#)
    }
}
