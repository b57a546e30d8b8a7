/// How many tokens a text takes for a model, estimated without its tokenizer, on the high side:
/// the tokenizers of small open models (Qwen, Llama) make a token of every digit, of most
/// characters outside ASCII and of most single quotes (sample rows are lists of quoted values), and
/// of about three characters of other text.
///
/// Measured with Qwen2.5-Coder's own tokenizer (llama.cpp's `/tokenize`) on the real prompts of
/// `ask` for Chinook, Northwind and six generated databases, with and without descriptions and
/// sample rows (`python3 Scripts/token_estimate.py`): the estimate is above the real count for every
/// system prompt, by 2.7 to 28%, and by about 50% for a short question. (Without counting quotes it
/// was up to 2.9% below on schemas with many quoted sample values.)
package enum TokenEstimate {
    /// The estimated tokens of `text`.
    package static func tokens(in text: String) -> Int {
        var other = 0
        var single = 0
        for scalar in text.unicodeScalars {
            if scalar.value >= 0x80 || ("0"..."9").contains(scalar) || scalar == "'" {
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
