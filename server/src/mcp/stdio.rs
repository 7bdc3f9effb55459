//! MCP over standard input and output, with every request answered: each line is read here
//! first, and what parses goes on to rmcp unchanged, while what does not is answered at once
//! with the parse error of [`super::jsonrpc::unparsable`] (rmcp would drop it, and the client
//! wait out its timeout). One writer keeps rmcp's answers and these whole lines.

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

use super::jsonrpc::{INVALID_REQUEST, error_answer, unparsable};
use kenning::error::{KenningError, Result};

/// The longest message read; a longer one is answered as too large and skipped.
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;

/// How much of its input or output rmcp may have in flight before the pumps wait.
const PIPE_BYTES: usize = 256 * 1024;

/// Serves `server` over `input` and `output` (the process's standard streams) until the
/// client closes `input` or `output` fails.
pub async fn serve<S>(
    server: S,
    input: impl AsyncRead + Unpin + Send + 'static,
    mut output: impl AsyncWrite + Unpin + Send + 'static,
) -> Result<()>
where
    S: rmcp::ServerHandler,
{
    let (mut to_rmcp, rmcp_input) = tokio::io::duplex(PIPE_BYTES);
    let (rmcp_output, from_rmcp) = tokio::io::duplex(PIPE_BYTES);
    let (lines, mut outgoing) = mpsc::channel::<Vec<u8>>(64);

    // One writer, so that rmcp's answers and ours are never interleaved within a line.
    let writer = tokio::spawn(async move {
        while let Some(line) = outgoing.recv().await {
            if output.write_all(&line).await.is_err() || output.flush().await.is_err() {
                // Standard output is closed: nobody reads an answer any more.
                break;
            }
        }
    });
    let answers = lines.clone();
    let forward_answers = tokio::spawn(async move {
        let mut from_rmcp = BufReader::new(from_rmcp);
        loop {
            let mut line = Vec::new();
            match from_rmcp.read_until(b'\n', &mut line).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if answers.send(line).await.is_err() {
                        break;
                    }
                }
            }
        }
    });
    let read_requests = tokio::spawn(async move {
        let mut input = BufReader::new(input);
        while let Ok(Some(message)) = read_message(&mut input).await {
            let forwarded = match message {
                Message::Line(line) => match check(&line) {
                    Ok(()) => to_rmcp.write_all(&line).await,
                    Err(answer) => {
                        let _ = lines.send(answer).await;
                        Ok(())
                    }
                },
                Message::TooLarge(start) => {
                    let answer = error_answer(
                        &start,
                        INVALID_REQUEST,
                        &format!("the message is over {MAX_MESSAGE_BYTES} bytes"),
                    );
                    let mut line = answer.to_string().into_bytes();
                    line.push(b'\n');
                    let _ = lines.send(line).await;
                    Ok(())
                }
            };
            if forwarded.is_err() {
                break;
            }
        }
        // Dropping `to_rmcp` is the end of input for rmcp.
    });

    let outcome = async {
        let running = rmcp::ServiceExt::serve(server, (rmcp_input, rmcp_output))
            .await
            .map_err(|e| KenningError::Usage(format!("MCP session did not start: {e}")))?;
        running
            .waiting()
            .await
            .map_err(|e| KenningError::Usage(format!("MCP session failed: {e}")))?;
        Ok(())
    }
    .await;
    // rmcp has stopped (its input ended, or its output failed): what it answered is written
    // out, and nothing more is read.
    read_requests.abort();
    let _ = forward_answers.await;
    let _ = read_requests.await;
    let _ = writer.await;
    outcome
}

/// One message as read: a whole line (with its line feed, if it had one), or the first bytes
/// of one over [`MAX_MESSAGE_BYTES`], whose rest was skipped.
enum Message {
    Line(Vec<u8>),
    TooLarge(Vec<u8>),
}

/// Reads the next message; `None` at the end of input.
async fn read_message(
    input: &mut (impl tokio::io::AsyncBufRead + Unpin),
) -> std::io::Result<Option<Message>> {
    let mut line = Vec::new();
    let limit = MAX_MESSAGE_BYTES as u64 + 1;
    if (&mut *input)
        .take(limit)
        .read_until(b'\n', &mut line)
        .await?
        == 0
    {
        return Ok(None);
    }
    if line.len() <= MAX_MESSAGE_BYTES || line.ends_with(b"\n") {
        return Ok(Some(Message::Line(line)));
    }
    // Skip to the end of the line, a bounded piece at a time.
    let mut rest = Vec::new();
    loop {
        rest.clear();
        let read = (&mut *input)
            .take(PIPE_BYTES as u64)
            .read_until(b'\n', &mut rest)
            .await?;
        if read == 0 || rest.ends_with(b"\n") {
            break;
        }
    }
    line.truncate(4096);
    Ok(Some(Message::TooLarge(line)))
}

/// Whether rmcp can read `line`; if not, the answer to write instead (one line).
fn check(line: &[u8]) -> std::result::Result<(), Vec<u8>> {
    match unparsable(line) {
        None => Ok(()),
        Some(answer) => {
            let mut line = answer.to_string().into_bytes();
            line.push(b'\n');
            Err(line)
        }
    }
}
