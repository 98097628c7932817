//! Journal writes that no caller needs to wait for (a status change, a fee, a replay result, a
//! write intent): queued and run in order on one thread, so a write's result goes back to the
//! agent without waiting for SQLite, and the work lands while the agent reads it. Readers call
//! [`WriteBehind::settle`] first and so see every write queued before them; dropping the queue
//! runs what is left. A write that must be on disk before something else happens (a record
//! before its send) settles the queue and is written by its caller.

use std::panic::AssertUnwindSafe;
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

type Job<C> = Box<dyn FnOnce(&C) + Send>;

/// How many jobs were queued and how many have run.
#[derive(Debug, Default)]
struct Counts {
    queued: u64,
    done: u64,
}

/// An ordered queue of jobs on a shared `C` (the SQLite connection), run by one thread.
pub struct WriteBehind<C: Send + 'static> {
    jobs: Mutex<Option<Sender<Job<C>>>>,
    counts: Arc<(Mutex<Counts>, Condvar)>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl<C: Send + 'static> std::fmt::Debug for WriteBehind<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let c = self.counts.0.lock().unwrap_or_else(|p| p.into_inner());
        f.debug_struct("WriteBehind")
            .field("queued", &c.queued)
            .field("done", &c.done)
            .finish()
    }
}

impl<C: Send + 'static> WriteBehind<C> {
    /// Starts the thread that runs jobs on `target`, each under its lock.
    pub fn new(target: Arc<Mutex<C>>) -> Self {
        let (tx, rx) = channel::<Job<C>>();
        let counts = Arc::new((Mutex::new(Counts::default()), Condvar::new()));
        let progress = counts.clone();
        let thread = std::thread::Builder::new()
            .name("journal-writer".into())
            .spawn(move || {
                for job in rx {
                    {
                        let c = target.lock().unwrap_or_else(|p| p.into_inner());
                        // A job that panics must not stop the ones after it, nor a reader.
                        let _ = std::panic::catch_unwind(AssertUnwindSafe(|| job(&c)));
                    }
                    let (lock, done) = &*progress;
                    lock.lock().unwrap_or_else(|p| p.into_inner()).done += 1;
                    done.notify_all();
                }
            })
            .expect("spawn the journal writer thread");
        Self {
            jobs: Mutex::new(Some(tx)),
            counts,
            thread: Mutex::new(Some(thread)),
        }
    }

    /// Queues `job`; it runs after every job queued before it.
    pub fn push(&self, job: impl FnOnce(&C) + Send + 'static) {
        let jobs = self.jobs.lock().unwrap_or_else(|p| p.into_inner());
        let Some(tx) = jobs.as_ref() else { return };
        self.counts
            .0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .queued += 1;
        if tx.send(Box::new(job)).is_err() {
            // The thread is gone (it never is while `self` lives): count the job as run.
            self.counts.0.lock().unwrap_or_else(|p| p.into_inner()).done += 1;
        }
    }

    /// Waits until every job queued so far has run.
    pub fn settle(&self) {
        let (lock, done) = &*self.counts;
        let mut c = lock.lock().unwrap_or_else(|p| p.into_inner());
        let target = c.queued;
        while c.done < target {
            c = done.wait(c).unwrap_or_else(|p| p.into_inner());
        }
    }
}

impl<C: Send + 'static> Drop for WriteBehind<C> {
    fn drop(&mut self) {
        self.jobs.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(t) = self.thread.lock().unwrap_or_else(|p| p.into_inner()).take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn jobs_run_in_order_and_settle_waits_for_them() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let behind = WriteBehind::new(Arc::new(Mutex::new(())));
        for i in 0..100 {
            let seen = seen.clone();
            behind.push(move |_: &()| {
                // Some slow jobs: settle must really wait for them.
                if i % 10 == 0 {
                    std::thread::sleep(Duration::from_micros(300));
                }
                seen.lock().unwrap().push(i);
            });
        }
        behind.settle();
        assert_eq!(*seen.lock().unwrap(), (0..100).collect::<Vec<_>>());
    }

    #[test]
    fn a_panicking_job_neither_stops_the_queue_nor_blocks_settle() {
        let behind = WriteBehind::new(Arc::new(Mutex::new(0u32)));
        let ran = Arc::new(Mutex::new(false));
        behind.push(|_: &u32| panic!("a failing job"));
        let r = ran.clone();
        behind.push(move |_: &u32| *r.lock().unwrap() = true);
        behind.settle();
        assert!(*ran.lock().unwrap());
    }

    #[test]
    fn dropping_the_queue_runs_what_is_left() {
        let seen = Arc::new(Mutex::new(0u32));
        let behind = WriteBehind::new(Arc::new(Mutex::new(())));
        for _ in 0..50 {
            let seen = seen.clone();
            behind.push(move |_: &()| {
                std::thread::sleep(Duration::from_micros(100));
                *seen.lock().unwrap() += 1;
            });
        }
        drop(behind);
        assert_eq!(*seen.lock().unwrap(), 50);
    }
}
