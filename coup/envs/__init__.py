"""coup.envs"""
