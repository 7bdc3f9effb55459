//! The sandbox: policies as WebAssembly components under wasmtime.
//!
//! One [`PolicyEngine`] per process compiles (or loads from the cache) and pre-instantiates a
//! component once. Every call then runs in a fresh `Store` with a fuel budget and a memory cap,
//! so a policy keeps no state between calls, cannot run forever and cannot exhaust the host's
//! memory. A trap becomes a [`PolicyError`] naming the policy and the trap kind.
//!
//! Components of every accepted contract version load here; which one a component implements
//! is read from the interface it exports, and each version's calls go through its adapter
//! module (`v0_1` .. `v0_4`). Only 0.1.0 components may import anything (the WASI interfaces of
//! Rust's `wasm32-wasip2` std, satisfied with a fixed seed and traps); later ones import nothing.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use kenning_contract::types::{
    Candidate, ConsolidationPlan, Context, FieldError, Limits, PolicyInfo, Retention, ScanItem,
    ScanResult, ScoreParts, Selection, StoredMemory, ValidatedCall,
};
use wasmtime::component::{Component, Linker};
use wasmtime::{
    Config, Enabled, Engine, InstanceAllocationStrategy, PoolingAllocationConfig, Store, Trap,
};

use super::cache::{self, CacheOutcome};
use super::sandbox::Sandbox;
use super::{CONTRACT_INTERFACES, DEFAULT_POLICY_WASM, Policy, v0_1, v0_2, v0_3, v0_4};
use crate::error::PolicyError;

/// Resource limits applied to every policy call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SandboxLimits {
    /// Fuel for one call (roughly one unit per WebAssembly instruction).
    pub fuel: u64,
    /// Most bytes of linear memory the policy may hold.
    pub memory_bytes: usize,
    /// Most wall-clock time one call may take, in milliseconds: fuel bounds the work, this
    /// bounds the time, whatever the machine's speed or load.
    pub deadline_ms: u64,
}

impl Default for SandboxLimits {
    /// 2 billion fuel (a second or two of work at most), 128 MiB of memory and 10 seconds.
    fn default() -> Self {
        SandboxLimits {
            fuel: 2_000_000_000,
            memory_bytes: 128 << 20,
            deadline_ms: 10_000,
        }
    }
}

/// How often the engine's epoch advances: the resolution of call deadlines.
pub const EPOCH_TICK: Duration = Duration::from_millis(5);

/// Longest deadline a call may be given: one hour.
pub const MAX_DEADLINE_MS: u64 = 3_600_000;

/// Advances `engine`'s epoch every [`EPOCH_TICK`] for as long as the engine lives.
fn start_epoch_ticker(engine: &Engine) -> std::io::Result<()> {
    let engine = engine.weak();
    std::thread::Builder::new()
        .name("kenning-policy-clock".to_owned())
        .spawn(move || {
            loop {
                std::thread::sleep(EPOCH_TICK);
                match engine.upgrade() {
                    Some(engine) => engine.increment_epoch(),
                    None => break,
                }
            }
        })
        .map(drop)
}

/// The wasmtime engine, configured for policies, and the compiled-code cache.
#[derive(Clone)]
pub struct PolicyEngine {
    engine: Engine,
    cache_dir: Option<PathBuf>,
}

/// Most policy instances alive at once (each call's instance lives only for the call; a scan
/// session keeps up to [`MAX_IDLE_INSTANCES`]).
pub const MAX_LIVE_INSTANCES: u32 = 64;

/// Most instances a session keeps between calls: one for each thread calling at once, up to
/// this many; an instance beyond them is dropped after its call.
const MAX_IDLE_INSTANCES: usize = 8;

/// The largest linear memory a 32-bit policy can address; slots are reserved this large, so
/// any [`SandboxLimits::memory_bytes`] fits (the limiter enforces the real cap).
pub const MAX_MEMORY_BYTES: usize = 4 << 30;

/// The smallest memory cap a policy may be given: one MiB (16 WebAssembly pages).
pub const MIN_MEMORY_BYTES: usize = 1 << 20;

/// Bytes of each instance's linear memory reset in place rather than returned to the kernel
/// when the instance ends, so the next instance in the slot takes no page faults there, where
/// the kernel can say which pages the instance dirtied (Linux's `PAGEMAP_SCAN`, 6.7 and later):
/// the default policy's snapshot and the heap its calls grow past it, and only the dirtied
/// pages are copied back.
const KEEP_RESIDENT_SCANNED_BYTES: usize = 16 << 20;

/// The same where every kept byte must be copied back whether dirtied or not: the stack and
/// the low data, which every call touches.
const KEEP_RESIDENT_BYTES: usize = 2 << 20;

/// The pooling allocator's configuration: instances take pre-reserved slots, reused from call
/// to call instead of mapping fresh memory for each.
fn pooling_config() -> PoolingAllocationConfig {
    let mut pooling = PoolingAllocationConfig::default();
    pooling
        .total_component_instances(MAX_LIVE_INSTANCES)
        .total_core_instances(MAX_LIVE_INSTANCES * 8)
        .total_memories(MAX_LIVE_INSTANCES)
        .total_tables(MAX_LIVE_INSTANCES * 8)
        .max_memory_size(MAX_MEMORY_BYTES)
        .linear_memory_keep_resident(if PoolingAllocationConfig::is_pagemap_scan_available() {
            KEEP_RESIDENT_SCANNED_BYTES
        } else {
            KEEP_RESIDENT_BYTES
        })
        .pagemap_scan(Enabled::Auto)
        .table_keep_resident(64 << 10);
    pooling
}

impl PolicyEngine {
    /// An engine that caches compiled policies under `cache_dir` (no cache when `None`).
    pub fn new(cache_dir: Option<PathBuf>) -> Result<Self, PolicyError> {
        let mut config = Config::new();
        config.consume_fuel(true);
        config.epoch_interruption(true);
        config.cranelift_opt_level(wasmtime::OptLevel::Speed);
        // A trap is reported as one line naming the policy and the trap; a wasm backtrace of
        // the policy's internals would help nobody reading the error.
        config.wasm_backtrace_max_frames(None);
        config.allocation_strategy(InstanceAllocationStrategy::Pooling(pooling_config()));
        let engine = Engine::new(&config).map_err(|e| PolicyError::Runtime(format!("{e:#}")))?;
        start_epoch_ticker(&engine).map_err(|e| {
            PolicyError::Runtime(format!("could not start the deadline clock: {e}"))
        })?;
        Ok(PolicyEngine { engine, cache_dir })
    }

    /// The underlying wasmtime engine.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// Loads the embedded default policy.
    pub fn load_default(&self, limits: SandboxLimits) -> Result<ComponentPolicy, PolicyError> {
        self.load_bytes("kenning-default", DEFAULT_POLICY_WASM, limits)
    }

    /// Loads a policy component from a file.
    pub fn load_file(
        &self,
        path: &Path,
        limits: SandboxLimits,
    ) -> Result<ComponentPolicy, PolicyError> {
        let wasm = std::fs::read(path).map_err(|source| PolicyError::Read {
            path: path.to_owned(),
            source,
        })?;
        self.load_bytes(&path.display().to_string(), &wasm, limits)
    }

    /// Loads a policy from component bytes; `label` names it in errors until `describe` answers.
    pub fn load_bytes(
        &self,
        label: &str,
        wasm: &[u8],
        limits: SandboxLimits,
    ) -> Result<ComponentPolicy, PolicyError> {
        let (component, outcome) = self.compile(label, wasm)?;
        let pre = self.pre_instantiate(label, &component)?;
        let mut policy = ComponentPolicy {
            engine: self.engine.clone(),
            pre,
            label: label.to_owned(),
            info: None,
            limits,
            cache_outcome: outcome,
            keep_instance: false,
            session: Mutex::new(Vec::new()),
            fuel_spent: AtomicU64::new(0),
        };
        let info = policy.run("describe", |bindings, store| match bindings {
            Bindings::V0_1(b) => v0_1::describe(b, store),
            Bindings::V0_2(b) => v0_2::describe(b, store),
            Bindings::V0_3(b) => v0_3::describe(b, store),
            Bindings::V0_4(b) => v0_4::describe(b, store),
        })?;
        check_contract_version(label, policy.pre.interface(), &info)?;
        policy.info = Some(info);
        Ok(policy)
    }

    /// Compiles (or loads from the cache) without instantiating.
    pub fn compile(
        &self,
        label: &str,
        wasm: &[u8],
    ) -> Result<(Component, CacheOutcome), PolicyError> {
        if !wasm.starts_with(b"\0asm") {
            return Err(PolicyError::NotAComponent {
                policy: label.to_owned(),
                detail: "the file does not start with the WebAssembly magic bytes".to_owned(),
            });
        }
        cache::load_or_compile(&self.engine, self.cache_dir.as_deref(), wasm).map_err(|e| {
            PolicyError::NotAComponent {
                policy: label.to_owned(),
                detail: format!("{e:#}"),
            }
        })
    }

    fn pre_instantiate(&self, label: &str, component: &Component) -> Result<Pre, PolicyError> {
        let exports = exported_names(&self.engine, component);
        let Some(interface) = CONTRACT_INTERFACES
            .iter()
            .rev()
            .find(|interface| exports.iter().any(|e| e == *interface))
        else {
            return Err(PolicyError::WrongContract {
                policy: label.to_owned(),
                contract: ANY_CONTRACT,
                detail: format!("it exports {}", describe_names(&exports)),
            });
        };
        let mut linker: Linker<Sandbox> = Linker::new(&self.engine);
        if *interface == v0_1::INTERFACE {
            define_fixed_seed(&mut linker, &self.engine, component)
                .map_err(|e| PolicyError::Runtime(format!("{label}: {e:#}")))?;
            // Rust's wasm32-wasip2 std makes components import WASI interfaces that a pure
            // policy never calls; satisfy them with functions that trap if called.
            linker
                .define_unknown_imports_as_traps(component)
                .map_err(|e| PolicyError::Runtime(format!("{e:#}")))?;
        } else {
            // The contract's own `types` interface holds types only; anything else is a door
            // out of the sandbox.
            let types = interface.replace("/policy@", "/types@");
            let imports: Vec<String> = component
                .component_type()
                .imports(&self.engine)
                .map(|(name, _)| name.to_owned())
                .filter(|name| *name != types)
                .collect();
            if !imports.is_empty() {
                return Err(PolicyError::Imports {
                    policy: label.to_owned(),
                    contract: interface,
                    imports,
                });
            }
        }
        let instance_pre = linker
            .instantiate_pre(component)
            .map_err(|e| PolicyError::Runtime(format!("{label}: {e:#}")))?;
        let wrong = |e: wasmtime::Error| PolicyError::WrongContract {
            policy: label.to_owned(),
            contract: interface,
            detail: format!("{e:#}; it exports {}", describe_names(&exports)),
        };
        if *interface == v0_1::INTERFACE {
            v0_1::BindingsPre::new(instance_pre)
                .map(Pre::V0_1)
                .map_err(wrong)
        } else if *interface == v0_2::INTERFACE {
            v0_2::BindingsPre::new(instance_pre)
                .map(Pre::V0_2)
                .map_err(wrong)
        } else if *interface == v0_3::INTERFACE {
            v0_3::BindingsPre::new(instance_pre)
                .map(Pre::V0_3)
                .map_err(wrong)
        } else {
            v0_4::BindingsPre::new(instance_pre)
                .map(Pre::V0_4)
                .map_err(wrong)
        }
    }
}

/// How the host names "any accepted contract" in errors.
const ANY_CONTRACT: &str = "kenning:policy/policy (0.1.0, 0.2.0, 0.3.0 or 0.4.0)";

/// A component's pre-instantiated bindings, for the contract version it implements.
enum Pre {
    V0_1(v0_1::BindingsPre<Sandbox>),
    V0_2(v0_2::BindingsPre<Sandbox>),
    V0_3(v0_3::BindingsPre<Sandbox>),
    V0_4(v0_4::BindingsPre<Sandbox>),
}

impl Pre {
    fn interface(&self) -> &'static str {
        match self {
            Pre::V0_1(_) => v0_1::INTERFACE,
            Pre::V0_2(_) => v0_2::INTERFACE,
            Pre::V0_3(_) => v0_3::INTERFACE,
            Pre::V0_4(_) => v0_4::INTERFACE,
        }
    }

    fn instantiate(&self, store: &mut Store<Sandbox>) -> wasmtime::Result<Bindings> {
        match self {
            Pre::V0_1(pre) => pre.instantiate(store).map(Bindings::V0_1),
            Pre::V0_2(pre) => pre.instantiate(store).map(Bindings::V0_2),
            Pre::V0_3(pre) => pre.instantiate(store).map(Bindings::V0_3),
            Pre::V0_4(pre) => pre.instantiate(store).map(Bindings::V0_4),
        }
    }
}

/// One instance's bindings, for the contract version it implements.
enum Bindings {
    V0_1(v0_1::Bindings),
    V0_2(v0_2::Bindings),
    V0_3(v0_3::Bindings),
    V0_4(v0_4::Bindings),
}

/// The names of everything a component imports (for `kenning describe` and the README).
pub fn component_imports(engine: &PolicyEngine, wasm: &[u8]) -> Result<Vec<String>, PolicyError> {
    let (component, _) = engine.compile("component", wasm)?;
    Ok(component
        .component_type()
        .imports(&engine.engine)
        .map(|(name, _)| name.to_owned())
        .collect())
}

/// The seed the host gives a policy's hash maps (the bytes of "kenning-policy-v1").
const FIXED_SEED: (u64, u64) = (0x656e_6772_616d_2d70, 0x6f6c_6963_792d_7631);

/// Rust's std seeds `HashMap`s from `wasi:random/insecure-seed`, which libraries such as
/// `regex` reach at run time. A policy must be deterministic, so instead of randomness the host
/// answers with a fixed seed: iteration orders are then the same on every run. Every other WASI
/// import traps if called.
fn define_fixed_seed(
    linker: &mut Linker<Sandbox>,
    engine: &Engine,
    component: &Component,
) -> wasmtime::Result<()> {
    for (name, _) in component.component_type().imports(engine) {
        if name.starts_with("wasi:random/insecure-seed@") {
            linker
                .instance(name)?
                .func_wrap("insecure-seed", |_, (): ()| Ok((FIXED_SEED,)))?;
        }
    }
    Ok(())
}

fn exported_names(engine: &Engine, component: &Component) -> Vec<String> {
    component
        .component_type()
        .exports(engine)
        .map(|(name, _)| name.to_owned())
        .collect()
}

fn describe_names(names: &[String]) -> String {
    if names.is_empty() {
        "nothing".to_owned()
    } else {
        names.join(", ")
    }
}

/// The version `describe` reports must be the one whose interface the component exports.
fn check_contract_version(
    label: &str,
    interface: &'static str,
    info: &PolicyInfo,
) -> Result<(), PolicyError> {
    if interface.rsplit('@').next() != Some(info.contract_version.as_str()) {
        return Err(PolicyError::WrongContract {
            policy: label.to_owned(),
            contract: interface,
            detail: format!(
                "describe reports contract version {:?}",
                info.contract_version
            ),
        });
    }
    Ok(())
}

/// A policy component, compiled and pre-instantiated, ready to be called.
pub struct ComponentPolicy {
    engine: Engine,
    pre: Pre,
    label: String,
    info: Option<PolicyInfo>,
    limits: SandboxLimits,
    cache_outcome: CacheOutcome,
    /// Whether calls share one instance (a session) instead of a fresh one each.
    keep_instance: bool,
    /// The session's idle instances, between calls. A call takes one out (or makes one) and
    /// puts it back, so calls from several threads at once each run in an instance of their
    /// own, and each thread's next call finds one warm.
    session: Mutex<Vec<(Store<Sandbox>, Bindings)>>,
    /// Fuel every call so far has spent, trapped ones included.
    fuel_spent: AtomicU64,
}

impl std::fmt::Debug for ComponentPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ComponentPolicy")
            .field("label", &self.label)
            .field("info", &self.info)
            .field("limits", &self.limits)
            .field("cache_outcome", &self.cache_outcome)
            .finish_non_exhaustive()
    }
}

impl ComponentPolicy {
    /// How the compiled code was obtained.
    pub fn cache_outcome(&self) -> CacheOutcome {
        self.cache_outcome
    }

    /// The limits each call runs under.
    pub fn limits(&self) -> SandboxLimits {
        self.limits
    }

    /// Changes the limits for later calls.
    pub fn set_limits(&mut self, limits: SandboxLimits) {
        self.limits = limits;
    }

    /// Makes the calls that follow share one instance (a session) instead of a fresh instance
    /// each, so a policy's lazily built state (compiled patterns, tables) is built once: for a
    /// stream of calls from one caller, such as `kenning scan --jsonl` or an import. A policy
    /// can keep state between the calls of a session, so never share one across callers or
    /// subjects. Fuel is still per call; a trap ends the session.
    pub fn keep_instance_between_calls(&mut self, keep: bool) {
        self.keep_instance = keep;
        if !keep {
            *self
                .session
                .get_mut()
                .unwrap_or_else(PoisonError::into_inner) = Vec::new();
        }
    }

    /// Instantiates the policy in a fresh store and drops it: the per-call set-up cost.
    pub fn instantiate_only(&self) -> Result<(), PolicyError> {
        let mut store = self.new_store()?;
        self.pre
            .instantiate(&mut store)
            .map(drop)
            .map_err(|e| self.classify("instantiate", e, &store))
    }

    fn name(&self) -> &str {
        self.info.as_ref().map_or(&self.label, |info| &info.name)
    }

    fn new_store(&self) -> Result<Store<Sandbox>, PolicyError> {
        let mut store = Store::new(&self.engine, Sandbox::new(self.limits.memory_bytes));
        store.limiter(Sandbox::limiter);
        store
            .set_fuel(self.limits.fuel)
            .map_err(|e| PolicyError::Runtime(format!("{e:#}")))?;
        store.set_epoch_deadline(self.deadline_ticks());
        Ok(store)
    }

    /// The call deadline in epoch ticks, rounded up, plus the tick already under way.
    fn deadline_ticks(&self) -> u64 {
        let tick = EPOCH_TICK.as_millis() as u64;
        self.limits.deadline_ms.div_ceil(tick) + 1
    }

    /// Runs one export in a fresh instance.
    fn run<T>(
        &self,
        call: &'static str,
        f: impl FnOnce(&Bindings, &mut Store<Sandbox>) -> wasmtime::Result<T>,
    ) -> Result<T, PolicyError> {
        let kept = self
            .session
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop();
        let (mut store, bindings) = match kept {
            Some(session) if self.keep_instance => session,
            _ => {
                let mut store = self.new_store()?;
                let bindings = self
                    .pre
                    .instantiate(&mut store)
                    .map_err(|e| self.classify(call, e, &store))?;
                (store, bindings)
            }
        };
        store
            .set_fuel(self.limits.fuel)
            .map_err(|e| PolicyError::Runtime(format!("{e:#}")))?;
        store.set_epoch_deadline(self.deadline_ticks());
        let outcome = f(&bindings, &mut store);
        let left = store.get_fuel().unwrap_or(self.limits.fuel);
        let spent = self.limits.fuel.saturating_sub(left);
        self.fuel_spent.fetch_add(spent, Ordering::Relaxed);
        match outcome {
            Ok(value) => {
                crate::metrics::policy_call(call, "ok", spent);
                if self.keep_instance {
                    let mut idle = self.session.lock().unwrap_or_else(PoisonError::into_inner);
                    if idle.len() < MAX_IDLE_INSTANCES {
                        idle.push((store, bindings));
                    }
                }
                Ok(value)
            }
            // The instance is dropped with its store: after a trap nothing of it is reused.
            Err(error) => {
                let error = self.classify(call, error, &store);
                crate::metrics::policy_call(call, error.outcome(), spent);
                Err(error)
            }
        }
    }

    fn classify(
        &self,
        call: &'static str,
        error: wasmtime::Error,
        store: &Store<Sandbox>,
    ) -> PolicyError {
        let policy = self.name().to_owned();
        if store.data().hit_memory_cap() {
            return PolicyError::MemoryCap {
                policy,
                call,
                cap: self.limits.memory_bytes,
            };
        }
        match error.downcast_ref::<Trap>() {
            Some(Trap::OutOfFuel) => PolicyError::OutOfFuel {
                policy,
                call,
                fuel: self.limits.fuel,
            },
            Some(Trap::Interrupt) => PolicyError::Deadline {
                policy,
                call,
                deadline_ms: self.limits.deadline_ms,
            },
            Some(trap) => PolicyError::Trap {
                policy,
                call,
                trap: trap.to_string(),
            },
            None => PolicyError::Trap {
                policy,
                call,
                trap: error.root_cause().to_string(),
            },
        }
    }
}

impl ComponentPolicy {
    /// Fuel the policy's calls have spent since it was loaded: the WebAssembly it ran, counted
    /// the same on any machine however busy, where its time is not.
    pub fn fuel_spent(&self) -> u64 {
        self.fuel_spent.load(Ordering::Relaxed)
    }

    /// The contract version this component implements.
    pub fn contract_version(&self) -> &'static str {
        self.pre.interface().rsplit('@').next().unwrap_or_default()
    }
}

impl Policy for ComponentPolicy {
    fn info(&self) -> &PolicyInfo {
        self.info.as_ref().expect("describe ran at load time")
    }

    fn validate(
        &self,
        tool: &str,
        args_json: &str,
    ) -> Result<Result<ValidatedCall, Vec<FieldError>>, PolicyError> {
        self.run("validate", |bindings, store| match bindings {
            Bindings::V0_1(b) => v0_1::validate(b, store, tool, args_json),
            Bindings::V0_2(b) => v0_2::validate(b, store, tool, args_json),
            Bindings::V0_3(b) => v0_3::validate(b, store, tool, args_json),
            Bindings::V0_4(b) => v0_4::validate(b, store, tool, args_json),
        })
    }

    fn scan(&self, items: &[ScanItem]) -> Result<Vec<ScanResult>, PolicyError> {
        self.run("scan", |bindings, store| match bindings {
            Bindings::V0_1(b) => v0_1::scan(b, store, items),
            Bindings::V0_2(b) => v0_2::scan(b, store, items),
            Bindings::V0_3(b) => v0_3::scan(b, store, items),
            Bindings::V0_4(b) => v0_4::scan(b, store, items),
        })
    }

    fn score(
        &self,
        context: &Context,
        candidates: &[Candidate],
    ) -> Result<Vec<ScoreParts>, PolicyError> {
        self.run("score", |bindings, store| match bindings {
            Bindings::V0_1(b) => v0_1::score(b, store, context, candidates),
            Bindings::V0_2(b) => v0_2::score(b, store, context, candidates),
            Bindings::V0_3(b) => v0_3::score(b, store, context, candidates),
            Bindings::V0_4(b) => v0_4::score(b, store, context, candidates),
        })
    }

    fn select(
        &self,
        context: &Context,
        candidates: &[Candidate],
        limits: &Limits,
    ) -> Result<Selection, PolicyError> {
        self.run("select", |bindings, store| match bindings {
            Bindings::V0_1(b) => v0_1::select(b, store, context, candidates, limits),
            Bindings::V0_2(b) => v0_2::select(b, store, context, candidates, limits),
            Bindings::V0_3(b) => v0_3::select(b, store, context, candidates, limits),
            Bindings::V0_4(b) => v0_4::select(b, store, context, candidates, limits),
        })
    }

    fn consolidate(
        &self,
        now: i64,
        memories: &[StoredMemory],
        retention: &Retention,
    ) -> Result<ConsolidationPlan, PolicyError> {
        let plan = self.run("consolidate", |bindings, store| match bindings {
            Bindings::V0_1(_) => Ok(None),
            Bindings::V0_2(b) => v0_2::consolidate(b, store, now, memories, retention).map(Some),
            Bindings::V0_3(b) => v0_3::consolidate(b, store, now, memories, retention).map(Some),
            Bindings::V0_4(b) => v0_4::consolidate(b, store, now, memories, retention).map(Some),
        })?;
        plan.ok_or_else(|| PolicyError::Unsupported {
            policy: self.name().to_owned(),
            duty: "consolidate",
            contract: "0.1.0",
            latest: kenning_contract::CONTRACT_VERSION,
        })
    }
}
