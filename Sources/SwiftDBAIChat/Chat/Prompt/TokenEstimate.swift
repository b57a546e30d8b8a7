/// How many tokens a text takes for a model, estimated without its tokenizer, on the high side:
/// the tokenizers of small open models (Qwen, Llama) make a token of every digit and of most
/// characters outside ASCII, and of about three characters of other text (schema text, SQL and
/// sample rows are denser than prose).
///
/// Measured with Qwen2.5-Coder's own tokenizer on the schema prompts of the evaluation databases
/// (Chinook, Northwind and the generated ones, with and without descriptions and sample rows):
/// the estimate was above the real count for every one, by 4 to 21% (`Scripts/token_estimate.py`).
package enum TokenEstimate {
    /// The estimated tokens of `text`.
    package static func tokens(in text: String) -> Int {
        var other = 0
        var single = 0
        for scalar in text.unicodeScalars {
            if scalar.value >= 0x80 || ("0"..."9").contains(scalar) {
                single += 1
            } else {
                other += 1
            }
        }
        return single + (other + 2) / 3
    }

    /// The estimated tokens of a conversation: its messages' texts and tool calls, and a few
    /// tokens each for the chat template around them.
    static func tokens(in messages: [ChatMessage]) -> Int {
        messages.reduce(0) { total, message in
            total + 6 + tokens(in: message.content) + message.toolCalls.reduce(0) { $0 + 8 + tokens(in: $1.arguments) }
        }
    }
}
