import MCP
import SwiftDBAIChat

/// The JSON Schemas of the tools' inputs and outputs. Every `structuredContent` a tool returns
/// validates against its output schema (the end-to-end tests let the official client check).
enum ToolSchemas {
    static let column: Value = [
        "type": "object",
        "properties": ["name": ["type": "string"], "type": ["type": "string"]],
        "required": ["name"],
    ]

    /// The output of `query` and `aggregate`.
    static let rowsOutput: Value = [
        "type": "object",
        "properties": [
            "columns": ["type": "array", "items": column],
            "rows": ["type": "array", "items": ["type": "array"]],
            "row_count": ["type": "integer", "minimum": 0],
            "truncated": ["type": "boolean", "description": "True when the result is incomplete (see truncated_by)."],
            "truncated_by": truncatedBy,
            "clipped_cells": clippedCells,
            "elapsed_ms": ["type": "number"],
            "next_cursor": ["type": "string", "description": "Pass it as cursor, with the same sql and params, for the rows after these."],
            "offset": ["type": "integer", "minimum": 0, "description": "Rows of the result before this page."],
            "pages_may_shift": ["type": "boolean", "description": "True when the order is not provably unique: pages may miss or repeat rows if the data changes."],
            "earlier_rows_changed": ["type": "boolean", "description": "True when the rows before this page changed since the earlier pages."],
        ],
        "required": ["columns", "rows", "row_count", "truncated", "elapsed_ms"],
    ]

    static let truncatedBy: Value = [
        "type": "string", "enum": ["rows", "bytes"],
        "description": "Which limit cut the result: the row limit, or the result size limit (rows not fetched, long values clipped).",
    ]

    static let clippedCells: Value = [
        "type": "integer", "minimum": 1,
        "description": "How many long values were clipped: text ends with …[clipped: N bytes in all]; a blob has clipped: true.",
    ]

    /// The output of `insert`, `update` and `delete`: the change made, or a confirmation request.
    static let writeOutput: Value = [
        "type": "object",
        "properties": [
            "operation": ["type": "string", "enum": ["insert", "update", "delete"]],
            "rows_affected": ["type": "integer", "minimum": 0],
            "last_insert_rowid": ["type": "integer"],
            "elapsed_ms": ["type": "number"],
            "confirmation_required": [
                "type": "boolean",
                "description": "True when nothing ran yet: show the preview to the user, then call again with confirm set to the token.",
            ],
            "confirmation_token": ["type": "string"],
            "expires_in_seconds": ["type": "integer"],
            "message": ["type": "string"],
            "changed_since_preview": [
                "type": "boolean",
                "description": "True when an earlier confirmation no longer matched the rows (nothing ran): this is a new preview.",
            ],
            "preview": [
                "type": "object",
                "properties": [
                    "rows_affected": ["type": "integer", "minimum": 0],
                    "columns": ["type": "array", "items": column],
                    "rows": ["type": "array", "items": ["type": "array"]],
                    "truncated": ["type": "boolean"],
                ],
                "required": ["rows_affected"],
            ],
        ],
    ]

    static let columnSchema: Value = [
        "type": "object",
        "properties": [
            "name": ["type": "string"],
            "type": ["type": "string"],
            "not_null": ["type": "boolean"],
            "default": ["type": "string"],
            "primary_key_position": ["type": "integer"],
            "visibility": ["type": "string", "enum": ["normal", "hidden", "generated_virtual", "generated_stored"]],
            "description": ["type": "string", "description": "What the column holds (metadata or a comment in its CREATE TABLE)."],
            "masked": [
                "type": "boolean",
                "description": "True when the metadata masks the column: it reads as NULL unless your access includes dbai:unmask.",
            ],
        ],
        "required": ["name", "type", "not_null", "visibility"],
    ]

    static let tableSchema: Value = [
        "type": "object",
        "properties": [
            "name": ["type": "string"],
            "kind": ["type": "string", "enum": ["table", "view", "virtual"]],
            "columns": ["type": "array", "items": columnSchema],
            "foreign_keys": ["type": "array", "items": [
                "type": "object",
                "properties": [
                    "columns": ["type": "array", "items": ["type": "string"]],
                    "references_table": ["type": "string"],
                    "references_columns": ["type": "array", "items": ["type": "string"]],
                    "on_update": ["type": "string"],
                    "on_delete": ["type": "string"],
                ],
                "required": ["columns", "references_table", "references_columns"],
            ]],
            "indexes": ["type": "array", "items": [
                "type": "object",
                "properties": [
                    "name": ["type": "string"],
                    "unique": ["type": "boolean"],
                    "partial": ["type": "boolean"],
                    "origin": ["type": "string"],
                    "terms": ["type": "array"],
                    "sql": ["type": "string"],
                ],
                "required": ["name", "unique", "terms"],
            ]],
            "without_rowid": ["type": "boolean"],
            "strict": ["type": "boolean"],
            "module": ["type": "string"],
            "description": ["type": "string", "description": "What the table holds (metadata)."],
            "row_count": rowCount,
            "sql": ["type": "string"],
        ],
        "required": ["name", "kind", "columns", "foreign_keys", "indexes"],
    ]

    /// The output of `describe_schema`.
    /// The output of `export`.
    static let exportOutput: Value = [
        "type": "object",
        "properties": [
            "uri": ["type": "string", "description": "The export's resource: read it with resources/read (?chunk=N for chunk N)."],
            "format": ["type": "string", "enum": ["csv", "jsonl"]],
            "mime_type": ["type": "string"],
            "row_count": ["type": "integer", "minimum": 0],
            "bytes": ["type": "integer", "minimum": 0],
            "chunks": ["type": "integer", "minimum": 1, "description": "How many resources/read answers the export takes."],
            "columns": ["type": "array", "items": [
                "type": "object", "properties": ["name": ["type": "string"], "type": ["type": "string"]], "required": ["name"],
            ]],
            "expires_at": ["type": "string", "description": "Until when the resource can be read (ISO 8601)."],
            "file": ["type": "string", "description": "The file written in the server's export directory, when it has one."],
            "truncated": ["type": "boolean", "description": "True when the server's policy capped the rows."],
        ],
        "required": ["uri", "format", "mime_type", "row_count", "bytes", "chunks", "columns", "expires_at"],
    ]

    /// A table's row count and where it comes from.
    static let rowCount: Value = [
        "type": "object",
        "properties": [
            "count": ["type": "integer"], "exact": ["type": "boolean"],
            "source": ["type": "string", "enum": ["counted", "sqlite_stat1", "rowid_range", "at_least"]],
        ],
        "required": ["count", "exact"],
    ]

    /// A table in a catalog: names only.
    static let catalogEntry: Value = [
        "type": "object",
        "properties": [
            "name": ["type": "string"],
            "kind": ["type": "string", "enum": ["table", "view", "virtual"]],
            "columns": ["type": "array", "items": ["type": "string"]],
            "columns_not_shown": ["type": "integer", "description": "Columns left out of columns to fit the answer."],
            "row_count": rowCount,
            "description": ["type": "string"],
            "matched_columns": ["type": "array", "items": ["type": "string"], "description": "The columns a search matched."],
        ],
        "required": ["name", "kind", "columns"],
    ]

    static let schemaOutput: Value = [
        "type": "object",
        "properties": [
            "mode": [
                "type": "string", "enum": ["full", "catalog", "search", "tables"],
                "description": "full: the whole schema; catalog: a page of names, columns and row counts; search: the tables matching search; tables: the tables asked for.",
            ],
            "tables": ["type": "array", "items": tableSchema],
            "ddl": ["type": "string", "description": "CREATE statements with keys (and sample rows when asked), for reading."],
            "catalog": ["type": "array", "items": catalogEntry, "description": "In catalog and search modes: the tables of this page."],
            "total_tables": ["type": "integer", "description": "The tables of the whole answer: every one, those matching, or those asked for."],
            "truncated": ["type": "boolean", "description": "True when this page does not hold the whole answer (see next_cursor and note)."],
            "next_cursor": ["type": "string", "description": "Pass it as cursor, with the same table or search, for the next page."],
            "note": ["type": "string", "description": "What this page holds and how to get the rest."],
            "databases": [
                "type": "array",
                "description": "With several databases and none named: each database and its tables (tables is then empty).",
                "items": [
                    "type": "object",
                    "properties": [
                        "name": ["type": "string"],
                        "file": ["type": "string"],
                        "description": ["type": "string"],
                        "table_count": ["type": "integer"],
                        "tables_not_shown": ["type": "integer"],
                        "tables": ["type": "array", "items": [
                            "type": "object",
                            "properties": [
                                "name": ["type": "string"],
                                "kind": ["type": "string", "enum": ["table", "view", "virtual"]],
                                "description": ["type": "string"],
                            ],
                            "required": ["name", "kind"],
                        ]],
                    ],
                    "required": ["name", "tables"],
                ],
            ],
        ],
        "required": ["tables", "ddl"],
    ]

    /// The output of `ask`.
    static let askOutput: Value = [
        "type": "object",
        "properties": [
            "answer": ["type": "string", "description": "A plain-language answer."],
            "database": ["type": "string", "description": "The database the server chose for the question (with several)."],
            "sql": ["type": "string", "description": "The statement that ran."],
            "model_sql": ["type": "string", "description": "The statement the language model wrote; differs from sql when rewrites changed it."],
            "rewrites": [
                "type": "array",
                "description": "Each rewrite between model_sql and sql, in order: a repair of a statement SQLite rejected, or an equivalence (changes nothing anyone could mean). Guesses never appear here: they are only told to the model (looked_again_for).",
                "items": [
                    "type": "object",
                    "properties": [
                        "rule": ["type": "string"],
                        "kind": ["type": "string", "enum": ["repair", "equivalence"]],
                        "before": ["type": "string"],
                        "after": ["type": "string"],
                    ],
                    "required": ["rule", "kind", "before", "after"],
                ],
            ],
            "looked_again_for": [
                "type": "array",
                "description": "What the model was told when it was asked to look at its statement again (no rows, a value its column does not hold, a reading of the question it may have missed); empty when its first statement stood.",
                "items": ["type": "string"],
            ],
            "replaced_sql": [
                "type": "string",
                "description": "The statement the model wrote first, which ran, when its second look (looked_again_for) replaced it; absent when the first statement stands.",
            ],
            "doubts": [
                "type": "array",
                "description": "What looks wrong in the answer, for the user to check: a value its column does not hold, keys of different tables compared, statements of the model that disagree. Empty when nothing does.",
                "items": ["type": "string"],
            ],
            "columns": ["type": "array", "items": column],
            "rows": ["type": "array", "items": ["type": "array"]],
            "row_count": ["type": "integer", "minimum": 0],
            "truncated": ["type": "boolean"],
            "truncated_by": truncatedBy,
            "clipped_cells": clippedCells,
            "rows_affected": ["type": "integer", "minimum": 0],
            "chart": [
                "type": "object",
                "properties": [
                    "type": ["type": "string", "enum": ["bar", "line", "pie"]],
                    "x": ["type": "string"],
                    "y": ["type": "string"],
                ],
                "required": ["type", "x", "y"],
            ],
            "conversation_id": ["type": "string", "description": "Pass it back to ask a follow-up."],
            "confidence": [
                "type": "string", "enum": ["high", "low"],
                "description": "How sure the answer is: high when the evidence says it is likely right; low when it may be wrong and should be checked before it is relied on (confidence_reasons say why).",
            ],
            "confidence_reasons": [
                "type": "array",
                "description": "Why the confidence is what it is: the reasons against the answer first, then those for it.",
                "items": [
                    "type": "object",
                    "properties": [
                        "code": ["type": "string", "enum": .array(AnswerConfidence.Reason.Code.allCases.map { .string($0.rawValue) })],
                        "message": ["type": "string"],
                        "supports_answer": ["type": "boolean"],
                    ],
                    "required": ["code", "message", "supports_answer"],
                ],
            ],
            "confidence_score": [
                "type": "number", "minimum": 0, "maximum": 1,
                "description": "The estimated chance that the answer is right, from the evidence, with weights fitted on development question sets; confidence is high from the server's threshold up.",
            ],
            "confidence_evidence": [
                "type": "object",
                "description": "The signals the confidence was judged from.",
                "properties": [
                    "token_logprob_min": ["type": "number", "description": "The lowest log-probability of a token of the statement (absent when the provider gives none)."],
                    "token_logprob_mean": ["type": "number"],
                    "hesitations": ["type": "integer", "minimum": 0, "description": "Tokens chosen with a probability under one half."],
                    "candidates_written": ["type": "integer", "minimum": 1],
                    "candidates_cast": ["type": "integer", "minimum": 0],
                    "candidates_agreeing": ["type": "integer", "minimum": 0],
                    "failed_statements": ["type": "integer", "minimum": 0],
                    "repaired": ["type": "boolean"],
                    "asked_afresh": ["type": "boolean"],
                    "looked_again": ["type": "boolean"],
                    "replaced": ["type": "boolean"],
                    "empty_result": ["type": "boolean"],
                    "null_result": ["type": "boolean"],
                    "doubts": ["type": "integer", "minimum": 0],
                    "unrelated_columns": ["type": "array", "items": ["type": "string"]],
                    "tables_read": ["type": "integer", "minimum": 0],
                ],
            ],
            "candidates": [
                "type": "array",
                "description": "The statements the model wrote for a vote on the answer, in order, the first included (absent without a vote): result numbers the distinct results (the same number, the same rows; null: it failed or found nothing).",
                "items": [
                    "type": "object",
                    "properties": [
                        "sql": ["type": ["string", "null"]],
                        "result": ["type": ["integer", "null"]],
                        "agrees": ["type": "boolean"],
                        "token_logprob_min": ["type": "number"],
                        "hesitations": ["type": "integer", "minimum": 0],
                    ],
                    "required": ["sql", "result", "agrees"],
                ],
            ],
            "attempts": ["type": "integer", "minimum": 1],
            "usage": [
                "type": "object",
                "description": "The language model's work for this answer: calls made, and tokens when the provider reports them.",
                "properties": [
                    "model_calls": ["type": "integer", "minimum": 0],
                    "prompt_tokens": ["type": "integer", "minimum": 0],
                    "completion_tokens": ["type": "integer", "minimum": 0],
                    "cached_prompt_tokens": ["type": "integer", "minimum": 0],
                ],
                "required": ["model_calls"],
            ],
        ],
        "required": [
            "answer", "sql", "model_sql", "rewrites", "looked_again_for", "doubts", "columns", "rows", "conversation_id", "confidence",
            "confidence_reasons",
        ],
    ]
}
