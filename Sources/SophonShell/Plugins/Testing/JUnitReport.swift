import Foundation

/// The JUnit XML report of `sophon test --junit FILE` (docs/commands.md, "test"), in the shape
/// the common CI readers take (Jenkins, GitLab, GitHub reporters): `testsuites` holding one
/// `testsuite` named `sophon` (its `properties` carry the number of jobs, then an empty
/// `system-out` and `system-err`, as the stricter Ant-style schema requires), a `testcase` per
/// file (`name` = the path, `classname` = the path without `.sophon` and with `/` as `.`, `time`
/// in seconds) and a `failure` element per failed expectation or error (`type` = `expect` or
/// `error`). `failures` counts failed files.
enum JUnitReport {
    /// The whole document, UTF-8 with an XML declaration, ending with a newline.
    /// - Parameters:
    ///   - timestamp: when the run started (ISO 8601 without a zone, as the schema has it).
    ///   - hostname: the machine's name.
    ///   - jobs: the `--jobs` of the run, kept as the property `sophon.jobs`.
    static func document(
        _ results: [TestFileResult], seconds: Double, timestamp: Date, hostname: String, jobs: Int
    ) -> String {
        let failed = results.filter { !$0.passed }.count
        let totals =
            "tests=\"\(results.count)\" failures=\"\(failed)\" errors=\"0\" time=\"\(format(seconds))\""
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<testsuites name=\"sophon test\" \(totals)>",
            "  <testsuite name=\"sophon\" \(totals) timestamp=\"\(isoTimestamp(timestamp))\""
                + " hostname=\"\(escape(hostname))\" package=\"sophon\" id=\"0\">",
            "    <properties>",
            "      <property name=\"sophon.jobs\" value=\"\(jobs)\"/>",
            "    </properties>",
        ]
        for result in results {
            let attributes =
                "name=\"\(escape(result.path))\" classname=\"\(escape(className(result.path) + (result.model.map { ".\($0)" } ?? "")))\""
                + " time=\"\(format(result.seconds))\""
            guard !result.passed else {
                lines.append("    <testcase \(attributes)/>")
                continue
            }
            lines.append("    <testcase \(attributes)>")
            for failure in result.failures {
                let type = failure.isExpectation ? "expect" : "error"
                let body =
                    failure.expectation.map { "\(failure.location): \($0)\n\(failure.message)" }
                    ?? "\(failure.location): \(failure.message)"
                lines.append(
                    "      <failure type=\"\(type)\" message=\"\(escape(failure.message))\">"
                        + "\(escape(body))</failure>")
            }
            lines.append("    </testcase>")
        }
        lines += ["    <system-out/>", "    <system-err/>", "  </testsuite>", "</testsuites>"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `examples/tour.sophon` as `examples.tour`.
    static func className(_ path: String) -> String {
        let base = path.hasSuffix(".sophon") ? String(path.dropLast(".sophon".count)) : path
        return base.split(separator: "/").filter { $0 != "." }.joined(separator: ".")
    }

    /// Seconds with three decimals.
    private static func format(_ seconds: Double) -> String { String(format: "%.3f", seconds) }

    private static func isoTimestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return formatter.string(from: date)
    }

    /// `text` escaped for an attribute or element: `& < > " '`, tabs and line ends as character
    /// references, and the characters XML 1.0 forbids dropped.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            case "\n": escaped += "&#10;"
            case "\r": escaped += "&#13;"
            case "\t": escaped += "&#9;"
            case let other where other.value < 0x20 || (0xFFFE...0xFFFF).contains(other.value):
                continue
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
