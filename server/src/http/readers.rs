//! The threads that answer reading requests (search, context, listings): as many as the
//! machine has cores, taking the requests in the order they arrived.
//!
//! A read is pure CPU work (the store is mapped, the policy runs in this process). Handed to
//! tokio's blocking pool, every request in flight got a thread of its own, and the operating
//! system shared the cores between all of them: a request took as long as everything that
//! arrived with it, and the slowest percent waited for the whole crowd. In order, on one thread
//! per core, a request waits only for those ahead of it. A thread that finishes a request takes
//! the next from the queue itself, so a core never idles while requests wait (a semaphore in
//! front of the blocking pool left 11% of the machine idle between one request and the next).
//!
//! Writes do not come here: they wait on the disk and on each other (SQLite has one writer),
//! and would hold a reader's core while they wait.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

/// One queued request: runs on a reader thread.
type Job = Box<dyn FnOnce() + Send>;

/// The reader threads and their queue. Dropping it lets the threads end once the queue is
/// empty.
pub struct Readers {
    queue: Sender<Job>,
}

/// Why a read did not give an answer.
#[derive(Debug)]
pub enum ReadFailed {
    /// The work panicked (the thread survives it).
    Panicked,
    /// The reader threads are gone (the server is stopping).
    Stopped,
}

impl std::fmt::Display for ReadFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ReadFailed::Panicked => "the read panicked",
            ReadFailed::Stopped => "the reader threads have stopped",
        })
    }
}

impl Readers {
    /// Starts `threads` reader threads (at least one).
    pub fn start(threads: usize) -> std::io::Result<Self> {
        let (sender, receiver) = channel::<Job>();
        let receiver = Arc::new(Mutex::new(receiver));
        for index in 0..threads.max(1) {
            let receiver = Arc::clone(&receiver);
            std::thread::Builder::new()
                .name(format!("kenning-reader-{index}"))
                .spawn(move || serve(&receiver))?;
        }
        Ok(Readers { queue: sender })
    }

    /// One reader thread for each core this process may use.
    pub fn one_per_core() -> std::io::Result<Self> {
        Self::start(std::thread::available_parallelism().map_or(1, usize::from))
    }

    /// Runs `work` on a reader thread after the reads queued before it, and gives its answer.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ReadFailed> {
        let (answer, answered) = oneshot::channel();
        let job: Job = Box::new(move || {
            let outcome = catch_unwind(AssertUnwindSafe(work)).map_err(|_| ReadFailed::Panicked);
            // The request may have been abandoned (its client went away): nobody to tell.
            let _ = answer.send(outcome);
        });
        if self.queue.send(job).is_err() {
            return Err(ReadFailed::Stopped);
        }
        answered.await.unwrap_or(Err(ReadFailed::Stopped))
    }
}

/// A reader thread's life: take the next job, run it, until the queue's sender is gone.
fn serve(receiver: &Mutex<Receiver<Job>>) {
    loop {
        let next = match receiver.lock() {
            Ok(receiver) => receiver.recv(),
            Err(_) => return,
        };
        match next {
            Ok(job) => job(),
            Err(_) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::time::Duration;

    use super::*;

    /// One thread: tasks spawned on it first run in the order they were spawned.
    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
    }

    #[test]
    fn reads_are_answered_in_the_order_they_arrive() {
        let readers = Arc::new(Readers::start(1).expect("threads"));
        let (release, released) = mpsc::channel::<()>();
        let order = Arc::new(Mutex::new(Vec::new()));
        runtime().block_on(async {
            let mut asked = Vec::new();
            // The first read holds the only thread until every other read is queued behind it.
            let first_order = Arc::clone(&order);
            let first_readers = Arc::clone(&readers);
            asked.push(tokio::spawn(async move {
                first_readers
                    .run(move || {
                        let _ = released.recv_timeout(Duration::from_secs(10));
                        first_order.lock().expect("order").push(0);
                    })
                    .await
            }));
            for n in 1..6 {
                let (order, readers) = (Arc::clone(&order), Arc::clone(&readers));
                asked.push(tokio::spawn(async move {
                    readers
                        .run(move || order.lock().expect("order").push(n))
                        .await
                }));
            }
            tokio::task::yield_now().await;
            release.send(()).expect("the first read waits");
            for answer in asked {
                answer.await.expect("joined").expect("answered");
            }
        });
        assert_eq!(*order.lock().expect("order"), vec![0, 1, 2, 3, 4, 5]);
    }

    #[test]
    fn a_read_that_panics_is_reported_and_its_thread_answers_the_next() {
        let readers = Readers::start(1).expect("threads");
        runtime().block_on(async {
            let failed = readers.run(|| -> u32 { panic!("a defect") }).await;
            assert!(matches!(failed, Err(ReadFailed::Panicked)), "{failed:?}");
            assert_eq!(readers.run(|| 7).await.expect("answered"), 7);
        });
    }

    #[test]
    fn a_read_whose_asker_left_does_not_stop_the_next() {
        let readers = Arc::new(Readers::start(1).expect("threads"));
        runtime().block_on(async {
            let queued = Arc::clone(&readers);
            let asker = tokio::spawn(async move {
                queued
                    .run(|| std::thread::sleep(Duration::from_millis(50)))
                    .await
            });
            tokio::task::yield_now().await;
            asker.abort();
            assert_eq!(readers.run(|| 3).await.expect("answered"), 3);
        });
    }
}
