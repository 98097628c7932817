//! The planner played on the sim chain's engine directly: the game state read from the chain,
//! the pure policy's move ([`game::policy`]) applied to it, no tool call per decision.
//! The games are the sim chain's own (minted there, recorded in its history, visible to the
//! tools), and the narration is the one the tool path gives, line for line.

use std::time::{Duration, Instant};

use super::narration::GameRun;
use super::{AgentError, AgentOptions, GameSummary, Strategy, Tally, entering, finish};
use chain::{ChainError, Confirm, Hooks, TxReport, WriteOptions};
use game::catalogue;
use game::engine::{Action, EngineSettings};
use game::model::GameState;
use game::phase::Phase;
use game::policy::{Ceiling, Decision, Lookahead, Params, Policy};
use game::rules::STARTING_WEAPONS;
use game::view::{AdventurerView, adventurer_view};
use sim::SimChain;

/// The rules the advisor tools assume on this chain: the world's own when its randomness is
/// deterministic, else the default `ls_0_0_9` settings (what the policy then assumes too, so it
/// decides as an agent reading those tools would).
pub fn advisor_settings(sim: &SimChain) -> EngineSettings {
    if sim.randomness().is_deterministic() {
        sim.settings()
    } else {
        EngineSettings::default()
    }
}

/// The starting weapon's id from its name or id (Wand, Book, Short Sword, Club).
pub fn starting_weapon(weapon: &str) -> Result<u8, AgentError> {
    catalogue::resolve_item(weapon)
        .map(|i| i.id)
        .filter(|id| STARTING_WEAPONS.contains(id))
        .ok_or_else(|| AgentError::Weapon(weapon.to_string()))
}

/// One game on `sim`, from mint to death or the action cap, the planner with `params` deciding
/// each move (or the lookahead or ceiling over it, as `opts.strategy` says); a line per decision
/// and event goes to `narrate`.
pub fn play_on_sim(
    sim: &SimChain,
    opts: &AgentOptions,
    params: Params,
    narrate: &mut dyn FnMut(String),
) -> Result<GameSummary, AgentError> {
    let weapon = starting_weapon(&opts.weapon)?;
    let table = Table {
        sim,
        write: WriteOptions {
            confirm: Confirm::Accepted,
            timeout: Duration::from_secs(5),
            hooks: Hooks::default(),
        },
    };
    let id = table.mint()?;
    let report = table.apply(id, &Action::StartGame { weapon })?;
    let (mut state, mut view) = table.read(id)?;
    narrate(entering(id.into(), opts));
    let mut game = GameRun::default();
    game.take(&report.events, view.clone(), narrate);
    let mut policy = Decider::of(&opts.strategy, params, sim);
    let mut tally = Tally::default();
    while view.phase != Phase::Dead && tally.actions < opts.max_actions {
        let clock = Instant::now();
        let decision = policy.decide(&table, id, &state, &view)?;
        tally.decided(clock);
        narrate(format!("{} {}", game.status(), decision.reason));
        let report = table.apply(id, &decision.action)?;
        (state, view) = table.read(id)?;
        game.take(&report.events, view.clone(), narrate);
    }
    Ok(finish(id.into(), &view, &game, opts, tally, narrate))
}

/// Who decides on the engine: the planner, the lookahead over it, or the research ceiling (which
/// reads the stored game, hidden seed included).
enum Decider {
    Planner(Box<Policy>),
    Lookahead(Box<Lookahead>),
    Ceiling(Box<Ceiling>),
}

impl Decider {
    fn of(strategy: &Strategy, params: Params, sim: &SimChain) -> Self {
        let advisor = advisor_settings(sim);
        match strategy {
            Strategy::Lookahead(_, budget) => {
                Self::Lookahead(Box::new(Lookahead::new(params, advisor, *budget)))
            }
            Strategy::Ceiling(_, budget) => Self::Ceiling(Box::new(Ceiling::new(
                params,
                advisor,
                sim.settings(),
                *budget,
            ))),
            _ => Self::Planner(Box::new(Policy::new(params, advisor))),
        }
    }

    fn decide(
        &mut self,
        table: &Table<'_>,
        id: u64,
        state: &GameState,
        view: &AdventurerView,
    ) -> Result<Decision, AgentError> {
        Ok(match self {
            Self::Planner(p) => p.decide(state, view),
            Self::Lookahead(l) => l.decide(state, view),
            Self::Ceiling(c) => {
                let game = table
                    .sim
                    .stored_game(id)
                    .map_err(Table::refused("get_game_state"))?
                    .unwrap_or_default();
                c.decide(&game, id, state, view)
            }
        })
    }
}

/// The sim chain as the direct path uses it: mint, act, read.
struct Table<'a> {
    sim: &'a SimChain,
    write: WriteOptions,
}

impl Table<'_> {
    fn refused(action: &'static str) -> impl FnOnce(ChainError) -> AgentError {
        move |source| AgentError::Chain { action, source }
    }

    fn mint(&self) -> Result<u64, AgentError> {
        let (id, _) = self
            .sim
            .mint_game(&self.write)
            .map_err(Self::refused("mint_game"))?;
        Ok(id)
    }

    fn apply(&self, id: u64, action: &Action) -> Result<TxReport, AgentError> {
        self.sim
            .apply(id, action, &self.write)
            .map_err(Self::refused(action.entrypoint()))
    }

    fn read(&self, id: u64) -> Result<(GameState, AdventurerView), AgentError> {
        let state = self
            .sim
            .game_state(id)
            .map_err(Self::refused("get_game_state"))?;
        let view = adventurer_view(id.into(), &state);
        Ok((state, view))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Ending;
    use sim::SimRandomness;

    #[test]
    fn starting_weapons_are_resolved_by_name_or_id_and_others_refused() {
        assert_eq!(starting_weapon("Short Sword").unwrap(), 46);
        assert_eq!(starting_weapon("wand").unwrap(), 12);
        assert_eq!(starting_weapon("76").unwrap(), 76);
        assert!(matches!(
            starting_weapon("Katana"),
            Err(AgentError::Weapon(w)) if w == "Katana"
        ));
    }

    #[test]
    fn a_game_on_the_engine_ends_in_death_or_at_the_cap_with_one_timing_per_decision() {
        let sim = SimChain::with_randomness(EngineSettings::default(), 5, SimRandomness::Master(9));
        assert_eq!(advisor_settings(&sim), EngineSettings::default());
        let opts = AgentOptions {
            weapon: "Club".into(),
            max_actions: 40,
            strategy: Strategy::Planner(Params::default()),
        };
        let mut lines = Vec::new();
        let s = play_on_sim(&sim, &opts, Params::default(), &mut |l| lines.push(l)).unwrap();
        assert_eq!(s.adventurer_id, 5);
        assert_eq!(
            s.decision_us.len() as u32,
            s.actions - 1,
            "one per move after the start"
        );
        assert!(s.ending == Ending::Died || s.actions == 40, "{s:?}");
        assert!(lines[0].starts_with("adventurer 5 enters Death Mountain with a Club"));
        assert!(
            lines
                .iter()
                .any(|l| l.contains("the starter beast: attacking"))
        );
        let state = sim.game_state(5).unwrap();
        assert_eq!(state.adventurer.xp, s.xp, "the game is the chain's own");
    }
}
