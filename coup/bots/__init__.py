"""coup.bots"""
